import type { IncomingMessage } from 'node:http';
import proxyaddr from 'proxy-addr';
import { normalizeAddress } from '../auth/ip-allow-list.ts';

/**
 * The caller's address: the socket's, or with trusted proxies (DESKGATE_TRUST_PROXY, in
 * proxy-addr's syntax: addresses, CIDR ranges, `loopback`, `uniquelocal`) the nearest
 * X-Forwarded-For entry not added by one of them.
 */
export function makeClientAddress(trusted: readonly string[]): (req: IncomingMessage) => string {
  if (trusted.length === 0) return (req) => normalizeAddress(req.socket.remoteAddress ?? '');
  const trust = proxyaddr.compile([...trusted]);
  return (req) => normalizeAddress(proxyaddr(req, trust));
}
