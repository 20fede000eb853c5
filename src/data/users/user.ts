import type { CreatedPosition } from '../../domain.ts';

export interface User {
  id: number;
  name: string;
  email: string;
  timezone: string;
  /** Digits as typed (osTicket may hold an `X` and an extension after them); "" for none. */
  phone: string;
  orgId: number;
  defaultEmailId: number;
  status: number;
  created: string;
  updated: string;
}
export interface NewUser {
  name: string;
  email: string;
  /** Always a hash (bcrypt or argon2); never a clear password. */
  passwordHash: string;
  timezone: string;
  /** Digits as typed (osTicket may hold an `X` and an extension after them); "" for none. */
  phone: string;
  orgId: number;
  /** 0 means "the email row being created". */
  defaultEmailId: number;
  status: number;
  /**
   * osTicket mode: whether the client-portal account is confirmed at once; false: pending until
   * the person confirms it through osTicket's confirmation mail (SPEC §4a). The own schema has no
   * portal and ignores it.
   */
  accountConfirmed: boolean;
}
/** A page of users by creation time: `from` and `to` inclusive, after `after`, at most `limit`. */
export interface UserRangeQuery {
  from: string;
  to: string;
  after: CreatedPosition | undefined;
  limit: number;
}
