import { AsyncLocalStorage } from 'node:async_hooks';
import { performance } from 'node:perf_hooks';
import type { Actor } from '../../domain.ts';
import type { WriteTransaction } from '../entity.ts';
import { StoreError } from '../store.ts';
import type { EventActor, NewEvent } from './event.ts';

/**
 * The write a transaction is doing, for the feed (decision 381): who asked (the generic write
 * path's Actor: API key, operation) and the events the write's entities appended, held until the
 * end of the transaction so their sequence numbers are taken just before the COMMIT.
 */
interface WriteOrigin {
  readonly actor: Actor;
  readonly pending: { trx: WriteTransaction; events: NewEvent[] }[];
}

const current = new AsyncLocalStorage<WriteOrigin>();

/**
 * The longest a transaction may take from taking its events' sequence numbers to its COMMIT:
 * past it the write is rolled back (503, nothing written). The feed holds back events after a
 * gap in the sequence for DESKGATE_EVENTS_SETTLE_MS, which must exceed this plus a COMMIT.
 */
export const EVENT_COMMIT_BOUND_MS = 2_000;

/** A write held its events' sequence numbers past EVENT_COMMIT_BOUND_MS: rolled back. */
export class SlowEventWriteError extends StoreError {
  override name = 'SlowEventWriteError';
}

/**
 * Runs a write's `fn` (inside its transaction) as `actor`'s: the events its entities append are
 * inserted by `flush`, which the caller runs last before the COMMIT.
 */
export function withWriteOrigin<T>(actor: Actor, fn: () => Promise<T>): Promise<T> {
  return current.run({ actor, pending: [] }, fn);
}

/** The events appended in this write so far are held for its end (true), or no write is running. */
export function holdForWrite(trx: WriteTransaction, events: NewEvent[]): boolean {
  const origin = current.getStore();
  if (!origin) return false;
  origin.pending.push({ trx, events });
  return true;
}

/** Inserts the held events with `insert`, then checks the bound; call last before the COMMIT. */
export async function flushHeldEvents(
  insert: (trx: WriteTransaction, events: NewEvent[]) => Promise<void>,
): Promise<void> {
  const origin = current.getStore();
  if (!origin || origin.pending.length === 0) return;
  const started = performance.now();
  for (const { trx, events } of origin.pending.splice(0)) await insert(trx, events);
  if (performance.now() - started > EVENT_COMMIT_BOUND_MS) {
    throw new SlowEventWriteError(
      `the write's events took over ${EVENT_COMMIT_BOUND_MS} ms to record; rolled back`,
    );
  }
}

/** The system itself (a sweep, a migration): no key, no person. */
export const SYSTEM_ACTOR: EventActor = { type: 'system', id: null, name: 'deskgate' };

/**
 * Who the running write's events name: the agent (or user) it acts as, else the API key that
 * made it (type `api`); a command-line write (key id 0) is `system`, named after its command.
 * `api_key_id` is the key of the running write, when one made it.
 */
export function eventActor(person?: {
  type: 'staff' | 'user';
  id: number;
  name: string;
}): EventActor {
  const actor = current.getStore()?.actor;
  const key = actor && actor.apiKeyId > 0 ? { api_key_id: actor.apiKeyId } : {};
  if (person) return { type: person.type, id: person.id, name: person.name, ...key };
  if (!actor) return SYSTEM_ACTOR;
  if (actor.apiKeyId > 0) return { type: 'api', id: actor.apiKeyId, name: null, ...key };
  return { type: 'system', id: null, name: `deskgate ${actor.operation}` };
}
