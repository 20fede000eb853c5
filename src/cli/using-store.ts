import type { Config } from '../config.ts';
import { openStore } from '../data/open-store.ts';
import type { Store } from '../data/store.ts';

/** Runs `fn` with an open Store and always closes it, whatever `fn` does. */
export async function usingStore<T>(
  config: Readonly<Config>,
  fn: (store: Store) => Promise<T>,
): Promise<T> {
  const { store } = await openStore(config, { migrate: config.migrate });
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}
