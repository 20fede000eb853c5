import ipaddr from 'ipaddr.js';

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** The prefix length of ::ffff:0:0/96, the IPv4-mapped IPv6 addresses. */
const MAPPED_PREFIX = 96;

function parseEntry(entry: string): Range {
  try {
    if (entry.includes('/')) return ipaddr.parseCIDR(entry);
    const address = ipaddr.parse(entry);
    return [address, address.kind() === 'ipv4' ? 32 : 128];
  } catch {
    throw new RangeError(`"${entry}" is not an IP address or CIDR range`);
  }
}

/**
 * Parses an address or CIDR range; throws a RangeError naming the bad entry. IPv4-mapped IPv6
 * (::ffff:127.0.0.1, ::ffff:10.0.0.0/104) becomes the IPv4 it stands for: client addresses are
 * compared in that form (normalizeAddress), so a mapped entry would otherwise never match.
 */
export function parseIpRange(entry: string): Range {
  const [base, bits] = parseEntry(entry);
  if (base.kind() === 'ipv6' && (base as ipaddr.IPv6).isIPv4MappedAddress()) {
    if (bits < MAPPED_PREFIX) {
      throw new RangeError(
        `"${entry}" mixes IPv4-mapped and other IPv6 addresses; write the IPv4 part as an IPv4 range`,
      );
    }
    return [(base as ipaddr.IPv6).toIPv4Address(), bits - MAPPED_PREFIX];
  }
  return [base, bits];
}

/** The entry as it is stored: IPv4-mapped IPv6 written as IPv4, anything else as given. */
export function normalizeIpRange(entry: string): string {
  const [base, bits] = parseIpRange(entry);
  if (base.kind() === 'ipv4' && parseEntry(entry)[0].kind() === 'ipv6') {
    return entry.includes('/') ? `${base.toString()}/${bits}` : base.toString();
  }
  return entry;
}

/** Canonical text of an address: IPv4-mapped IPv6 (::ffff:1.2.3.4) becomes plain IPv4. */
export function normalizeAddress(address: string): string {
  try {
    return ipaddr.process(address).toString();
  } catch {
    return address;
  }
}

/** A compiled allow-list. An empty list allows every address. */
export function makeIpAllowList(entries: readonly string[]): (address: string) => boolean {
  if (entries.length === 0) return () => true;
  const ranges = entries.map(parseIpRange);
  return (address) => {
    let parsed: ipaddr.IPv4 | ipaddr.IPv6;
    try {
      parsed = ipaddr.process(address);
    } catch {
      return false;
    }
    return ranges.some(([base, bits]) => base.kind() === parsed.kind() && parsed.match(base, bits));
  };
}
