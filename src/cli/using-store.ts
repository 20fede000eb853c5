import { existsSync } from 'node:fs';
import type { Config } from '../config.ts';
import { NotADeskgateDatabaseError } from '../data/database-open-error.ts';
import { describeStartError } from '../data/describe-start-error.ts';
import type { AnyEntity } from '../data/entity.ts';
import { sqlitePathOf } from '../data/open-database.ts';
import { openStore } from '../data/open-store.ts';
import type { Store } from '../data/store.ts';
import { CommandError, type CommandInput, parseId } from './command.ts';

/**
 * Runs `fn` with an open Store and always closes it, whatever `fn` does. It never creates or
 * migrates a database (only `serve` and `migrate` change a schema): a SQLite file that does not
 * exist is not created, nor its directory, and a database without deskgate's tables is refused.
 * A statement the database refuses comes back as one line, not a stack trace.
 *
 * `entities` are the ones `fn` reaches: in osTicket mode only their tables, columns and grants
 * are checked, and the command loads their code alone, not every operation's (a command starts
 * in ~0.08 s of CPU instead of ~0.12 s; docs/decisions/300-bundled-command.md).
 */
export async function usingStore<T>(
  config: Readonly<Config>,
  entities: readonly AnyEntity[],
  fn: (store: Store) => Promise<T>,
): Promise<T> {
  const path = sqlitePathOf(config.databaseUrl);
  if (path !== undefined && path !== '' && path !== ':memory:' && !existsSync(path))
    throw new NotADeskgateDatabaseError(config.databaseUrl, `there is no file ${path}`);
  const { store } = await openStore(config, { migrate: false, entities });
  try {
    return await fn(store);
  } catch (error) {
    throw describeStartError(error, config.databaseUrl);
  } finally {
    await store.close();
  }
}

/**
 * A command on one record: its one positional ID (parseId, before the database is opened), and
 * what `fn` finds or does with it in an open Store (usingStore); `no <what> with id <id>` (exit
 * status 1) when that is nothing.
 */
export async function usingStoreOnId<T>(
  input: CommandInput,
  entities: readonly AnyEntity[],
  what: string,
  fn: (store: Store, id: number) => Promise<T | undefined | false>,
): Promise<{ id: number; found: T }> {
  const id = parseId(input.positionals[0], 'ID');
  const found = await usingStore(input.config, entities, (store) => fn(store, id));
  if (found === undefined || found === false) throw new CommandError(`no ${what} with id ${id}`);
  return { id, found };
}
