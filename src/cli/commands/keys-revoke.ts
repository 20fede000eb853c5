import { apiKeys } from '../../data/api-keys/api-keys.ts';
import { type Command, CommandError, JSON_OPTION, parseId, printJson } from '../command.ts';
import { usingStore } from '../using-store.ts';

export const keysRevoke: Command = {
  name: 'keys revoke',
  usage: 'deskgate keys revoke ID [--database URL] [--json]',
  summary:
    'Revoke an API key; running services refuse it within DESKGATE_KEY_CACHE_TTL (2 s by default).',
  options: JSON_OPTION,
  positionals: 1,
  async run(input) {
    const id = parseId(input.positionals[0], 'ID');
    const found = await usingStore(input.config, [apiKeys], (store) =>
      store.data(apiKeys).revokeApiKey(id),
    );
    if (!found) throw new CommandError(`no API key with id ${id}`);
    if (input.values.json) printJson(input, { id, revoked: true });
    else input.out(`Revoked API key ${id}.\n`);
  },
};
