import { mkdir, open, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import type { Config } from '../config.ts';
import { apiKeys } from '../data/api-keys/api-keys.ts';
import { sqlitePathOf } from '../data/open-database.ts';
import type { Store } from '../data/store.ts';
import type { Logger } from '../logger.ts';
import { createFirstKey, formatFirstKeyBanner } from './first-start.ts';

const FILE_NAME = 'first-api-key.txt';

/** The first key could not be written where it belongs: one line for the person starting deskgate. */
export class FirstKeyFileError extends Error {
  override name = 'FirstKeyFileError';
}

/**
 * Where the first key goes when stdout is not a terminal: DESKGATE_FIRST_KEY_FILE, else beside a
 * SQLite database file, else ./data/first-api-key.txt.
 */
export function firstKeyFilePath(config: Pick<Config, 'firstKeyFile' | 'databaseUrl'>): string {
  if (config.firstKeyFile) return config.firstKeyFile;
  const sqlitePath = sqlitePathOf(config.databaseUrl);
  if (sqlitePath && sqlitePath !== ':memory:') return join(dirname(sqlitePath), FILE_NAME);
  return join('data', FILE_NAME);
}

/**
 * On a database without API keys, creates the first one and shows it once: on the terminal when
 * stdout is one, otherwise in a file only this user can read (0600), whose path is logged. A
 * service manager's stdout is a log stream that shippers parse and store: the key never goes there.
 */
export async function announceFirstKey(
  store: Store,
  config: Readonly<Config>,
  logger: Logger,
  address: Pick<AddressInfo, 'port'>,
  stdout: Pick<NodeJS.WriteStream, 'isTTY' | 'write'> = process.stdout,
): Promise<void> {
  if (stdout.isTTY) {
    const firstKey = await createFirstKey(store);
    if (firstKey) stdout.write(`${formatFirstKeyBanner(firstKey, config, address)}\n`);
    return;
  }
  if ((await store.data(apiKeys).countApiKeys()) > 0) return;
  const path = firstKeyFilePath(config);
  // The file is made before the key, so a path that cannot be written costs no key; an old file
  // is replaced, never followed (O_EXCL refuses a symlink planted in its place).
  let file: Awaited<ReturnType<typeof open>>;
  try {
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    await rm(path, { force: true });
    file = await open(path, 'wx', 0o600);
  } catch (error) {
    throw new FirstKeyFileError(
      `cannot write the first API key to ${path} (DESKGATE_FIRST_KEY_FILE): ${(error as Error).message}`,
      { cause: error },
    );
  }
  try {
    const firstKey = await createFirstKey(store);
    if (!firstKey) {
      await file.close();
      await rm(path, { force: true });
      return;
    }
    await file.writeFile(`${formatFirstKeyBanner(firstKey, config, address)}\n`);
    await file.sync();
    await file.close();
    logger.warn(
      { file: path, keyId: firstKey.apiKey.id, keyName: firstKey.apiKey.name },
      'created the first API key; it is in this file, readable only by this user: read it, then delete the file',
    );
  } catch (error) {
    await file.close().catch(() => {});
    await rm(path, { force: true });
    throw error;
  }
}
