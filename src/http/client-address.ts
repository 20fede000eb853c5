import type { IncomingMessage } from 'node:http';
import { isIP, type Socket } from 'node:net';
import proxyaddr from 'proxy-addr';
import { normalizeAddress } from '../auth/ip-allow-list.ts';

/**
 * An IP address as a client can have one: dotted-quad IPv4 or IPv6, no zone id (`%eth0`, which
 * is free text of any length), no port, none of the shorthand forms ipaddr.js also accepts.
 */
function isPlainIp(value: string): boolean {
  return isIP(value) !== 0 && !value.includes('%');
}

/**
 * The caller's address: the socket's, or with trusted proxies (DESKGATE_TRUST_PROXY, in
 * proxy-addr's syntax: addresses, CIDR ranges, `loopback`, `uniquelocal`) the nearest
 * X-Forwarded-For entry not added by one of them. An entry that is not an IP address is not
 * believed: the address is then that of the trusted hop that passed it on, so junk never reaches
 * the audit log and rotating junk values all count as that one hop for the failed-auth limit
 * (docs/decisions/051-forwarded-for-junk.md).
 */
export function makeClientAddress(trusted: readonly string[]): (req: IncomingMessage) => string {
  if (trusted.length === 0) {
    // A keep-alive connection carries many requests: its address is normalised once.
    const bySocket = new WeakMap<Socket, string>();
    return ({ socket }) => {
      let address = bySocket.get(socket);
      if (address === undefined) {
        address = normalizeAddress(socket.remoteAddress ?? '');
        bySocket.set(socket, address);
      }
      return address;
    };
  }
  const trust = proxyaddr.compile([...trusted]);
  return (req) => {
    // The socket's address first, then each forwarded one believed, up to the first untrusted.
    const chain = proxyaddr.all(req, trust);
    const nearest = chain.at(-1) ?? '';
    if (chain.length === 1 || isPlainIp(nearest)) return normalizeAddress(nearest);
    return normalizeAddress(chain.at(-2) ?? '');
  };
}
