import type { Store } from '../data/store.ts';
import type { Logger } from '../logger.ts';

/** How often /readyz looks again: an index is added or dropped rarely, a probe comes every few seconds. */
export const READYZ_ADVISORY_INTERVAL_MS = 10 * 60_000;

/**
 * Logs each of the store's advisories as a warning of its own (decision 333). Looking them up
 * must not stop the start or fail a probe: a failure is one debug line.
 */
export async function logAdvisories(store: Store, logger: Logger, when: string): Promise<void> {
  let lines: string[];
  try {
    lines = await store.advisories();
  } catch (error) {
    logger.debug({ err: error, when }, 'could not look for missing indexes');
    return;
  }
  for (const line of lines) logger.warn({ advisory: 'missing_index', when }, line);
}

/**
 * What /readyz calls once the store answered: the advisories again, in the background, at most
 * once in `intervalMs` (the first probe looks at once).
 */
export function advisoriesOnReadiness(
  store: Store,
  logger: Logger,
  intervalMs = READYZ_ADVISORY_INTERVAL_MS,
): () => void {
  let lastAt = Number.NEGATIVE_INFINITY;
  return () => {
    const now = Date.now();
    if (now - lastAt < intervalMs) return;
    lastAt = now;
    void logAdvisories(store, logger, 'readyz');
  };
}
