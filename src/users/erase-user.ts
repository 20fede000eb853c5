import type { WriteTransaction } from '../data/entity.ts';
import { appendEvents, forgetUserInEvents } from '../data/events/events.ts';
import { eventActor } from '../data/events/write-origin.ts';
import { type Store, StoreError } from '../data/store.ts';
import { type AnonymisedTickets, tickets } from '../data/tickets/tickets.ts';
import { users } from '../data/users/users.ts';
import { writes } from '../data/writes/writes.ts';
import type { Actor } from '../domain.ts';

/**
 * What one entity keeps, beyond the user's own rows, that points at a user. An entity that
 * stores user ids adds its line to USER_REFERENCES: `forget` drops them in the erasure's
 * transaction; `refusal` names why the user must be kept while they exist (data that must not be
 * lost, or that deskgate cannot erase), asked before the command's question and again in the
 * transaction.
 */
export interface UserReference {
  /** What the command reports, e.g. `stored user/add answers`. */
  readonly what: string;
  refusal?(
    store: Store,
    userId: number,
    scope: ErasureScope,
    trx?: WriteTransaction,
  ): Promise<string | undefined>;
  /**
   * Forgets the user's references; resolves to how many went, or undefined when `scope` leaves
   * them alone. Earlier lines have run: a later one may use what they left in `done`.
   */
  forget?(
    store: Store,
    trx: WriteTransaction,
    userId: number,
    scope: ErasureScope,
    done: ErasureSteps,
  ): Promise<number | undefined>;
}

/** What an erasure covers beyond the user's own rows. */
export interface ErasureScope {
  /** `--anonymise-tickets`: the user's tickets stay, anonymised (decision 343). */
  tickets: boolean;
}

/** What earlier USER_REFERENCES lines did, for later ones. */
interface ErasureSteps {
  tickets?: AnonymisedTickets;
}

/** What replaces the user's words and name in their tickets (decision 343). */
export const ERASED_MARKER = '[erased]';

/** Forgets the stored answers of `operation` that are one of `ids` (JSON strings, as stored). */
function forgetAnswersNaming(
  store: Store,
  trx: WriteTransaction,
  operation: string,
  ids: readonly number[],
): Promise<number> {
  return store.data(writes).forgetAnswersOf(
    trx,
    operation,
    ids.map((id) => JSON.stringify(String(id))),
  );
}

/** The stored answers of ticket writes naming these tickets or their entries. */
async function forgetTicketAnswers(
  store: Store,
  trx: WriteTransaction,
  { ticketIds, entryIds }: AnonymisedTickets,
): Promise<number> {
  let forgotten = 0;
  // The changes' fingerprints hash their comments and notes: words about the user too.
  for (const operation of ['add', 'close', 'status', 'assign', 'transfer', 'update'])
    forgotten += await forgetAnswersNaming(store, trx, `ticket/${operation}`, ticketIds);
  for (const operation of ['reply', 'note'])
    forgotten += await forgetAnswersNaming(store, trx, `ticket/${operation}`, entryIds);
  return forgotten;
}

export const USER_REFERENCES: readonly UserReference[] = [
  {
    // Only the id is in the answer, but the fingerprint is a hash of the personal data sent.
    what: 'stored user/add answers',
    forget: (store, trx, userId) =>
      store.data(writes).forgetAnswersOf(trx, 'user/add', JSON.stringify(String(userId))),
  },
  {
    // A ticket's messages are the user's words too: kept unless the erasure is asked to cover them.
    what: 'anonymised tickets',
    async refusal(store, userId, scope, trx) {
      if (scope.tickets) return undefined;
      const count = await store.data(tickets).countTicketsNaming({ userId }, trx);
      return count === 0
        ? undefined
        : `user ${userId} is named by ${count} ticket(s): pass --anonymise-tickets to erase what they hold ` +
            'about the user too (the tickets and their history stay); the user is kept (docs/decisions/343)';
    },
    async forget(store, trx, userId, scope, done) {
      if (!scope.tickets) return undefined;
      done.tickets = await store.data(tickets).anonymiseTicketsOf(trx, userId, ERASED_MARKER);
      return done.tickets.ticketIds.length;
    },
  },
  {
    // The feed keeps the ids of what happened, not the user's name as its actor.
    what: 'feed events naming the user',
    forget: (_store, trx, userId) => forgetUserInEvents(trx, userId, ERASED_MARKER),
  },
  {
    // The answers are ids, but their fingerprints hash the words those writes sent.
    what: 'stored ticket write answers',
    forget: (store, trx, _userId, _scope, done) =>
      done.tickets ? forgetTicketAnswers(store, trx, done.tickets) : Promise.resolve(undefined),
  },
];

/** `user.erased`, in the erasure's transaction: the id and what went with the user. */
function appendErasureEvent(
  store: Store,
  trx: WriteTransaction,
  id: number,
  at: string,
  forgotten: Record<string, number>,
): Promise<void> {
  return appendEvents(trx, store.dialect, [
    {
      type: 'user.erased',
      occurredAt: at,
      user: { id },
      actor: eventActor(),
      data: { tickets_anonymised: forgotten['anonymised tickets'] ?? 0 },
    },
  ]);
}

/** An erasure USER_REFERENCES refuses: one line, exit 1. */
export class ErasureRefusedError extends StoreError {
  override name = 'ErasureRefusedError';
}

/** Why user `id` cannot be erased now, or undefined when it can. */
export async function findErasureRefusal(
  store: Store,
  id: number,
  scope: ErasureScope,
  trx?: WriteTransaction,
): Promise<string | undefined> {
  for (const reference of USER_REFERENCES) {
    const refusal = await reference.refusal?.(store, id, scope, trx);
    if (refusal) return refusal;
  }
  return undefined;
}

/** Who erased, in the audit log: a person at the command line, no key, no address. */
export const CLI_ACTOR: Actor = { apiKeyId: 0, clientIp: 'cli', operation: 'users delete' };

export interface Erasure {
  /** How many of each USER_REFERENCES entry were forgotten, by `what`. */
  forgotten: Record<string, number>;
}

class NoSuchUser extends Error {}

/**
 * Deletes user `id` (its rows, addresses and account), forgets every USER_REFERENCES entry
 * `scope` covers (with `tickets`, anonymises the user's tickets) and writes an audit entry
 * holding only the id, in one transaction; ErasureRefusedError when a
 * reference refuses, undefined when there is no such user (nothing written either way). The
 * audit log keeps the ids it holds: an id is no personal data once its user is gone.
 */
export async function eraseUser(
  store: Store,
  id: number,
  scope: ErasureScope,
  actor: Actor = CLI_ACTOR,
): Promise<Erasure | undefined> {
  try {
    return await store.data(writes).recordWrite({
      actor,
      async run(trx, at) {
        const refusal = await findErasureRefusal(store, id, scope, trx);
        if (refusal) throw new ErasureRefusedError(refusal);
        const forgotten: Record<string, number> = {};
        const done: ErasureSteps = {};
        for (const reference of USER_REFERENCES) {
          const count = await reference.forget?.(store, trx, id, scope, done);
          if (count !== undefined) forgotten[reference.what] = count;
        }
        if (!(await store.data(users).deleteUser(trx, id))) throw new NoSuchUser();
        await appendErasureEvent(store, trx, id, at, forgotten);
        return { forgotten };
      },
      targetId: () => String(id),
      outcome: () => `deleted user ${id}`,
      answer: (erasure) => erasure,
    });
  } catch (error) {
    if (error instanceof NoSuchUser) return undefined;
    throw error;
  }
}

/**
 * osTicket mode (decision 344): what deskgate keeps once osTicket's own objects erased user `id`
 * (deskgate's plugin, in osTicket's transaction): its stored user/add answers and those of the
 * ticket writes naming `erased` go, and the audit entry (the id only) is written, in one
 * transaction of deskgate's tables.
 */
export function recordOsticketErasure(
  store: Store,
  id: number,
  scope: ErasureScope,
  erased: AnonymisedTickets,
  actor: Actor = CLI_ACTOR,
): Promise<Erasure> {
  return store.data(writes).recordWrite({
    actor,
    async run(trx, at) {
      const forgotten: Record<string, number> = {
        'stored user/add answers': await store
          .data(writes)
          .forgetAnswersOf(trx, 'user/add', JSON.stringify(String(id))),
      };
      // Not counted: how many the reader of osTicket's history has appended yet depends on when.
      await forgetUserInEvents(trx, id, ERASED_MARKER);
      if (scope.tickets) {
        forgotten['anonymised tickets'] = erased.ticketIds.length;
        forgotten['stored ticket write answers'] = await forgetTicketAnswers(store, trx, erased);
      }
      // osTicket logs no event for a deleted user: the feed's is written here (decision 384).
      await appendErasureEvent(store, trx, id, at, forgotten);
      return { forgotten };
    },
    targetId: () => String(id),
    outcome: () => `deleted user ${id} (through osTicket)`,
    answer: (erasure) => erasure,
  });
}
