import ipaddr from 'ipaddr.js';

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** Parses an address or CIDR range; throws a RangeError naming the bad entry. */
export function parseIpRange(entry: string): Range {
  try {
    if (entry.includes('/')) return ipaddr.parseCIDR(entry);
    const address = ipaddr.parse(entry);
    return [address, address.kind() === 'ipv4' ? 32 : 128];
  } catch {
    throw new RangeError(`"${entry}" is not an IP address or CIDR range`);
  }
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
