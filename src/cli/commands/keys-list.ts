import { apiKeys } from '../../data/api-keys/api-keys.ts';
import { type Command, JSON_OPTION, printJson } from '../command.ts';
import { formatTable } from '../format-table.ts';
import { usingStore } from '../using-store.ts';

export const keysList: Command = {
  name: 'keys list',
  usage: 'deskgate keys list [--database URL] [--json]',
  summary: 'List API keys (never the keys themselves: only their ids, names and settings).',
  options: JSON_OPTION,
  positionals: 0,
  async run(input) {
    const keys = await usingStore(input.config, (store) => store.data(apiKeys).listApiKeys());
    if (input.values.json) {
      printJson(input, keys);
      return;
    }
    input.out(
      formatTable(
        ['ID', 'NAME', 'SCOPES', 'ALLOW IPS', 'CREATED', 'LAST USED', 'REVOKED'],
        keys.map((k) => [
          String(k.id),
          k.name,
          k.scopes.join(','),
          k.allowIps.join(',') || 'any',
          k.created,
          k.lastUsed ?? '-',
          k.revoked ?? '-',
        ]),
      ),
    );
  },
};
