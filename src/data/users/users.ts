import { defineEntity, type WriteTransaction } from '../entity.ts';
import { makeOsticketUsers, OSTICKET_USER_TABLES } from './osticket-users.ts';
import { makeOwnUsers } from './own-users.ts';
import type { NewUser, User, UserRangeQuery } from './user.ts';

/** Users, as operations and commands see them in every layout. */
export interface UserData {
  /**
   * Writes the user's rows in the write's transaction (Writes.recordWrite) and returns its id.
   * Throws DuplicateEmailError when the address is taken (case-insensitively) and
   * RejectedValueError for a value the database cannot store.
   */
  insertUser(trx: WriteTransaction, user: NewUser, at: string): Promise<number>;
  findUserById(id: number): Promise<User | undefined>;
  findUserIdByEmail(email: string): Promise<number | undefined>;
  findPasswordHash(userId: number): Promise<string | undefined>;
  /** Users created in the range, in `created`, then `id` order (a stable order for paging). */
  listUsersCreatedBetween(query: UserRangeQuery): Promise<User[]>;
  /**
   * Deletes the user, its addresses and its account in the write's transaction; false when there
   * is no such user. osTicket mode: UnsupportedInModeError (osTicket's staff panel deletes users).
   */
  deleteUser(trx: WriteTransaction, id: number): Promise<boolean>;
}

export { DuplicateEmailError } from './duplicate-email-error.ts';

export const users = defineEntity<UserData>({
  name: 'users',
  own: makeOwnUsers,
  osticket: makeOsticketUsers,
  osticketRequires: {
    comment: 'users: read, and written as osTicket writes them (user/add)',
    tables: OSTICKET_USER_TABLES,
  },
});
