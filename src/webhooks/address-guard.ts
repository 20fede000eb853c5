import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { parseIpRange } from '../auth/ip-allow-list.ts';

/** A webhook target deskgate will not post to (SPEC §8e "Targets"); the message says why and how. */
export class AddressRefusedError extends Error {
  override name = 'AddressRefusedError';
  readonly code = 'EWEBHOOKADDRESS';
}

/**
 * Where webhooks may post (SPEC §8e): public addresses over https; addresses in
 * DESKGATE_WEBHOOK_ALLOW_PRIVATE over https or http. Everything else (loopback, private,
 * link-local with the cloud metadata service, carrier-grade NAT, multicast, reserved) is refused.
 * Checked on the resolved address at delivery time, and the connection goes to the address
 * checked, so a name that resolves elsewhere between check and connect cannot slip past.
 */
export interface AddressGuard {
  /** Why `url` cannot be a webhook target at all (scheme, credentials, a refused literal address), or undefined. */
  refuseUrl(url: string): string | undefined;
  /** Why deskgate must not connect to `address` for a request in `protocol`, or undefined. */
  refuseAddress(address: string, protocol: string): string | undefined;
  /** Resolves `url`'s host now and says why one of its addresses is refused (add time, a courtesy). */
  refuseResolved(url: string): Promise<string | undefined>;
  /** A `lookup` for node:http that resolves, checks every address, and connects only to checked ones. */
  lookupFor(protocol: string): LookupFunction;
}

export function makeAddressGuard(allowPrivate: readonly string[]): AddressGuard {
  const ranges = allowPrivate.map(parseIpRange);
  const allowed = (parsed: ipaddr.IPv4 | ipaddr.IPv6) =>
    ranges.some(([base, bits]) => base.kind() === parsed.kind() && parsed.match(base, bits));

  function refuseAddress(address: string, protocol: string): string | undefined {
    let parsed: ipaddr.IPv4 | ipaddr.IPv6;
    try {
      parsed = ipaddr.process(address);
    } catch {
      return `${address} is not an IP address`;
    }
    if (allowed(parsed)) return undefined;
    const range = parsed.range();
    if (range !== 'unicast') {
      return `${parsed.toString()} is a ${range} address; list its range in DESKGATE_WEBHOOK_ALLOW_PRIVATE to post to it`;
    }
    if (protocol !== 'https:') {
      return `plain http goes only to addresses DESKGATE_WEBHOOK_ALLOW_PRIVATE lists; use https for ${parsed.toString()}`;
    }
    return undefined;
  }

  function refuseUrl(text: string): string | undefined {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      return 'must be an absolute URL such as https://hooks.example.com/deskgate';
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must be an https:// URL';
    if (url.username !== '' || url.password !== '')
      return 'must not carry credentials (the signature tells the receiver the call is deskgate’s)';
    const host = hostOf(url);
    if (isIP(host)) return refuseAddress(host, url.protocol);
    return undefined;
  }

  function resolveAll(hostname: string): Promise<LookupAddress[]> {
    return new Promise((resolve, reject) =>
      dnsLookup(hostname, { all: true, verbatim: true }, (error, addresses) =>
        error ? reject(error) : resolve(addresses),
      ),
    );
  }

  return {
    refuseUrl,
    refuseAddress,
    async refuseResolved(text) {
      const early = refuseUrl(text);
      if (early !== undefined) return early;
      const url = new URL(text);
      const host = hostOf(url);
      if (isIP(host)) return undefined;
      let addresses: LookupAddress[];
      try {
        addresses = await resolveAll(host);
      } catch {
        // Not resolvable now: checked again at each delivery, when it must resolve.
        return undefined;
      }
      for (const { address } of addresses) {
        const refusal = refuseAddress(address, url.protocol);
        if (refusal !== undefined) return `resolves to ${address}: ${refusal}`;
      }
      return undefined;
    },
    lookupFor(protocol) {
      return (hostname, options, callback) => {
        resolveAll(hostname).then(
          (addresses) => {
            // One refused address refuses the name: connecting to "the other one" would let a
            // name with a public and a private record reach the private one on a retry.
            for (const { address } of addresses) {
              const refusal = refuseAddress(address, protocol);
              if (refusal !== undefined) {
                callback(
                  new AddressRefusedError(`${hostname} resolves to ${address}: ${refusal}`),
                  '',
                  0,
                );
                return;
              }
            }
            const wanted = options.family === 4 || options.family === 6 ? options.family : 0;
            const usable = addresses.filter((a) => wanted === 0 || a.family === wanted);
            if (options.all) {
              (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, usable);
              return;
            }
            const first = usable[0];
            if (!first) {
              callback(new AddressRefusedError(`${hostname} has no address`), '', 0);
              return;
            }
            callback(null, first.address, first.family);
          },
          (error: NodeJS.ErrnoException) => callback(error, '', 0),
        );
      };
    },
  };
}

/** The URL's host without IPv6 brackets. */
export function hostOf(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}
