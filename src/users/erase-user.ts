import type { WriteTransaction } from '../data/entity.ts';
import type { Store } from '../data/store.ts';
import { users } from '../data/users/users.ts';
import { writes } from '../data/writes/writes.ts';
import type { Actor } from '../domain.ts';

/**
 * What one entity keeps, beyond the user's own rows, that points at a user: forgotten in the
 * erasure's transaction. An entity that stores user ids (tickets, …) adds its line to
 * USER_REFERENCES; one that must not lose them (a ticket history) throws to refuse instead.
 */
export interface UserReference {
  /** What the command reports, e.g. `stored user/add answers`. */
  readonly what: string;
  /** Forgets the user's references; resolves to how many went. */
  forget(store: Store, trx: WriteTransaction, userId: number): Promise<number>;
}

export const USER_REFERENCES: readonly UserReference[] = [
  {
    // Only the id is in the answer, but the fingerprint is a hash of the personal data sent.
    what: 'stored user/add answers',
    forget: (store, trx, userId) =>
      store.data(writes).forgetAnswersOf(trx, 'user/add', JSON.stringify(String(userId))),
  },
];

/** Who erased, in the audit log: a person at the command line, no key, no address. */
export const CLI_ACTOR: Actor = { apiKeyId: 0, clientIp: 'cli', operation: 'users delete' };

export interface Erasure {
  /** How many of each USER_REFERENCES entry were forgotten, by `what`. */
  forgotten: Record<string, number>;
}

class NoSuchUser extends Error {}

/**
 * Deletes user `id` (its rows, addresses and account), forgets every USER_REFERENCES entry and
 * writes an audit entry holding only the id, in one transaction. Undefined when there is no such
 * user (nothing written). The audit log itself keeps the ids it holds: they are no personal data
 * once the user is gone.
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
        const forgotten: Record<string, number> = {};
        for (const reference of USER_REFERENCES)
          forgotten[reference.what] = await reference.forget(store, trx, id);
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
