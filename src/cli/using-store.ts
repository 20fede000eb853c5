import type { Config } from '../config.ts';
import { describeStartError } from '../data/describe-start-error.ts';
import { openStore } from '../data/open-store.ts';
import type { Store } from '../data/store.ts';

/**
 * Runs `fn` with an open Store and always closes it, whatever `fn` does. A statement the
 * database refuses comes back as one line, not a stack trace.
 */
export async function usingStore<T>(
  config: Readonly<Config>,
  fn: (store: Store) => Promise<T>,
): Promise<T> {
  const { store } = await openStore(config, { migrate: config.migrate });
  try {
    return await fn(store);
  } catch (error) {
    throw describeStartError(error);
  } finally {
    await store.close();
  }
}
