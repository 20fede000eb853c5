import type { Config } from '../config.ts';
import type { ApiKey } from '../domain.ts';

/**
 * What the osTicket-mode settings change in an osTicket key as deskgate reads it: under
 * DESKGATE_OSTICKET_KEY_ADDRESS=ignore it is usable from any address (the PHP service's
 * APIKEY_RESTRICT=false), under DESKGATE_OSTICKET_USERS_READ=all-keys every active key may look
 * users up (as the PHP service let any active key). Undefined when nothing changes.
 */
export function makeOsticketKeyPolicy(
  config: Pick<
    Config,
    'schema' | 'osticketKeyAddress' | 'osticketUsersRead' | 'osticketAccountGrantsStandIn'
  >,
): ((key: ApiKey) => ApiKey) | undefined {
  if (config.schema !== 'osticket') return undefined;
  const anyAddress = config.osticketKeyAddress === 'ignore';
  const usersRead = config.osticketUsersRead === 'all-keys';
  // STAND-IN (issue 32): the grants table of `osticket keys grant` replaces this.
  const accountGrants = config.osticketAccountGrantsStandIn;
  if (!anyAddress && !usersRead && accountGrants.size === 0) return undefined;
  return (key) => ({
    ...key,
    allowIps: anyAddress ? [] : key.allowIps,
    scopes:
      usersRead && !key.scopes.includes('users:read') ? [...key.scopes, 'users:read'] : key.scopes,
    accounts: accountGrants.get(key.id) ?? key.accounts,
  });
}
