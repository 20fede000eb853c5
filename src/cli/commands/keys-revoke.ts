import { apiKeys } from '../../data/api-keys/api-keys.ts';
import { type Command, JSON_OPTION, printJson } from '../command.ts';
import { usingStoreOnId } from '../using-store.ts';

export const keysRevoke: Command = {
  name: 'keys revoke',
  usage: 'deskgate keys revoke ID [--database URL] [--json]',
  summary:
    'Revoke an API key; running services refuse it within DESKGATE_KEY_CACHE_TTL (2 s by default).',
  options: JSON_OPTION,
  positionals: 1,
  async run(input) {
    const { id } = await usingStoreOnId(input, [apiKeys], 'API key', (store, keyId) =>
      store.data(apiKeys).revokeApiKey(keyId),
    );
    if (input.values.json) printJson(input, { id, revoked: true });
    else input.out(`Revoked API key ${id}.\n`);
  },
};
