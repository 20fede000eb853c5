import { rotateApiKey } from '../../auth/rotate-api-key.ts';
import { apiKeys } from '../../data/api-keys/api-keys.ts';
import { type Command, CommandError, JSON_OPTION, parseId } from '../command.ts';
import { parseDuration, parseExpiry } from '../expiry-input.ts';
import { usingStore } from '../using-store.ts';
import { printIssuedKey } from './keys-create.ts';

export const keysRotate: Command = {
  name: 'keys rotate',
  usage: 'deskgate keys rotate ID [--grace DURATION] [--expires 90d|DATE|never] [--json]',
  summary:
    'Give a key a new secret (same name, scopes, allow-list, notes flag, agents), shown once; the old secret works ' +
    'for --grace (default 0: revoked at once). The new key lives as long as the old one was given.',
  options: {
    ...JSON_OPTION,
    grace: { type: 'string', default: '0' },
    expires: { type: 'string' },
  },
  positionals: 1,
  async run(input) {
    const id = parseId(input.positionals[0], 'ID');
    const nowMs = Date.now();
    const graceMs = parseDuration(String(input.values.grace), '--grace');
    const { expires } = input.values;
    const expiresAt =
      typeof expires === 'string' ? parseExpiry(expires, '--expires', nowMs) : undefined;
    const rotation = await usingStore(input.config, [apiKeys], (store) =>
      rotateApiKey(store, id, { graceMs, expiresAt, nowMs }),
    );
    if (rotation.refused === 'missing') throw new CommandError(`no API key with id ${id}`);
    if (rotation.refused === 'revoked')
      throw new CommandError(`API key ${id} is revoked; create a new key with keys create`);
    if (rotation.refused === 'replaced')
      throw new CommandError(
        `API key ${id} was already rotated to key ${rotation.by}; rotate that one`,
      );
    printIssuedKey(input, rotation, `Rotated API key ${id}: created`);
    if (input.values.json) return;
    const { old } = rotation;
    input.out(
      old.revoked !== null
        ? `The old key ${id} is revoked.\n`
        : `The old key ${id} keeps working until ${old.expires} UTC.\n`,
    );
  },
};
