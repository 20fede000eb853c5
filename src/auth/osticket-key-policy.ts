import type { Config } from '../config.ts';
import type { ApiKey } from '../domain.ts';

/**
 * What the osTicket-mode settings change in an osTicket key as deskgate reads it: under
 * DESKGATE_OSTICKET_KEY_ADDRESS=ignore it is usable from any address (the PHP service's
 * APIKEY_RESTRICT=false). Undefined when nothing changes. (No setting widens a key's scopes:
 * that is a grant per key, SPEC §4a, decision 311.)
 */
export function makeOsticketKeyPolicy(
  config: Pick<Config, 'schema' | 'osticketKeyAddress'>,
): ((key: ApiKey) => ApiKey) | undefined {
  if (config.schema !== 'osticket' || config.osticketKeyAddress !== 'ignore') return undefined;
  return (key) => ({ ...key, allowIps: [] });
}
