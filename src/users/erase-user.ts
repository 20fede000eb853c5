import type { WriteTransaction } from '../data/entity.ts';
import { type Store, StoreError } from '../data/store.ts';
import { tickets } from '../data/tickets/tickets.ts';
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
  refusal?(store: Store, userId: number, trx?: WriteTransaction): Promise<string | undefined>;
  /** Forgets the user's references; resolves to how many went. */
  forget?(store: Store, trx: WriteTransaction, userId: number): Promise<number>;
}

export const USER_REFERENCES: readonly UserReference[] = [
  {
    // Only the id is in the answer, but the fingerprint is a hash of the personal data sent.
    what: 'stored user/add answers',
    forget: (store, trx, userId) =>
      store.data(writes).forgetAnswersOf(trx, 'user/add', JSON.stringify(String(userId))),
  },
  {
    // A ticket's messages are the user's words too; deleting them is a decision of its own.
    what: 'tickets',
    async refusal(store, userId, trx) {
      const count = await store.data(tickets).countTicketsNaming({ userId }, trx);
      return count === 0
        ? undefined
        : `user ${userId} is named by ${count} ticket(s), which deskgate does not erase; the user is kept (docs/decisions/216)`;
    },
  },
];

/** An erasure USER_REFERENCES refuses: one line, exit 1. */
export class ErasureRefusedError extends StoreError {
  override name = 'ErasureRefusedError';
}

/** Why user `id` cannot be erased now, or undefined when it can. */
export async function findErasureRefusal(
  store: Store,
  id: number,
  trx?: WriteTransaction,
): Promise<string | undefined> {
  for (const reference of USER_REFERENCES) {
    const refusal = await reference.refusal?.(store, id, trx);
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
 * Deletes user `id` (its rows, addresses and account), forgets every USER_REFERENCES entry and
 * writes an audit entry holding only the id, in one transaction; ErasureRefusedError when a
 * reference refuses, undefined when there is no such user (nothing written either way). The
 * audit log keeps the ids it holds: an id is no personal data once its user is gone.
 */
export async function eraseUser(
  store: Store,
  id: number,
  actor: Actor = CLI_ACTOR,
): Promise<Erasure | undefined> {
  try {
    return await store.data(writes).recordWrite({
      actor,
      async run(trx) {
        const refusal = await findErasureRefusal(store, id, trx);
        if (refusal) throw new ErasureRefusedError(refusal);
        const forgotten: Record<string, number> = {};
        for (const reference of USER_REFERENCES)
          if (reference.forget) forgotten[reference.what] = await reference.forget(store, trx, id);
        if (!(await store.data(users).deleteUser(trx, id))) throw new NoSuchUser();
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
