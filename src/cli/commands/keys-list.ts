import { describeAgents } from '../../auth/key-agents.ts';
import { apiKeys } from '../../data/api-keys/api-keys.ts';
import { timestampToMs } from '../../data/time.ts';
import type { ApiKey } from '../../domain.ts';
import { type Command, JSON_OPTION, printJson } from '../command.ts';
import { formatTable } from '../format-table.ts';
import { textTimestamp } from '../text-timestamp.ts';
import { usingStore } from '../using-store.ts';

/** Whether a key works now, and if not, why: what an operator looks for first. */
function statusOf(key: ApiKey, nowMs: number, time: (value: string) => string): string {
  if (key.revoked !== null)
    return key.replacedBy === null ? 'revoked' : `revoked (rotated to ${key.replacedBy})`;
  if (key.expires !== null && timestampToMs(key.expires) <= nowMs)
    return key.replacedBy === null ? 'expired' : `expired (rotated to ${key.replacedBy})`;
  return key.replacedBy === null
    ? 'active'
    : `active until ${key.expires === null ? '-' : time(key.expires)} (rotated to ${key.replacedBy})`;
}

export const keysList: Command = {
  name: 'keys list',
  usage: 'deskgate keys list [--database URL] [--json]',
  summary:
    'List API keys with their expiry, last use (written at most once a minute per key and process), ' +
    'status and the agents a ticket-writing key acts as; never the keys themselves.',
  options: JSON_OPTION,
  positionals: 0,
  async run(input) {
    const keys = await usingStore(input.config, [apiKeys], (store) =>
      store.data(apiKeys).listApiKeys(),
    );
    if (input.values.json) {
      printJson(input, keys);
      return;
    }
    const nowMs = Date.now();
    const time = (value: string) => textTimestamp(value, input.config);
    input.out(
      formatTable(
        [
          'ID',
          'NAME',
          'SCOPES',
          'ALLOW IPS',
          'CREATED',
          'LAST USED',
          'EXPIRES',
          'STATUS',
          'AGENTS',
        ],
        keys.map((k) => [
          String(k.id),
          k.name,
          k.scopes.join(','),
          k.allowIps.join(',') || 'any',
          time(k.created),
          k.lastUsed === null ? '-' : time(k.lastUsed),
          k.expires === null ? 'never' : time(k.expires),
          statusOf(k, nowMs, time),
          // Whom a tickets:write key replies and closes as (decision 312).
          k.scopes.includes('tickets:write') ? describeAgents(k.agents) : '-',
        ]),
      ),
    );
  },
};
