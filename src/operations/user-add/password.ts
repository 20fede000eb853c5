import { hash, verify } from '@node-rs/bcrypt';

const BCRYPT = /^\$2[aby]\$(0[4-9]|[12][0-9]|3[01])\$[./A-Za-z0-9]{53}$/;
const ARGON2 = /^\$argon2(i|id)\$v=\d+\$m=\d+,t=\d+,p=\d+\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+$/;
/** What clients of the PHP service send: PHP's md5(), 32 lower-case hex digits. */
const MD5_HEX = /^[0-9a-f]{32}$/;

/** osTicket's own minimum length for a password (and so deskgate's, for plain ones). */
export const MIN_PASSWORD_LENGTH = 6;

/**
 * What a `password` value is: a hash the help desk can verify (stored as given), or a plain
 * password (hashed). osTicket verifies bcrypt and, falling back, an MD5 hex digest (which it
 * upgrades to bcrypt at the first login); it cannot verify argon2.
 */
export type PasswordKind = 'bcrypt' | 'md5' | 'argon2' | 'plain';

export function passwordKind(value: string): PasswordKind {
  if (BCRYPT.test(value)) return 'bcrypt';
  if (MD5_HEX.test(value)) return 'md5';
  if (ARGON2.test(value)) return 'argon2';
  return 'plain';
}

/** True for a complete bcrypt, argon2 or MD5-hex hash, which is stored as given. */
export function isPasswordHash(value: string): boolean {
  return passwordKind(value) !== 'plain';
}

export interface HashingOptions {
  cost: number;
  /**
   * bcrypt's prefix: osTicket's phpass writes `$2a$`; PHP's crypt() verifies `$2a$`, `$2b$`
   * and `$2y$` alike (for UTF-8 input, which never holds the byte 0xFF, they are the same hash).
   */
  version: '2a' | '2y';
}

/**
 * The value to store: a recognised hash as it is, anything else bcrypt-hashed on the libuv
 * thread pool (never on the event loop). @node-rs/bcrypt 1.x writes `$2b$`; `$2a$`/`$2y$` name
 * the same algorithm for UTF-8 input, so only the label changes to the one asked for.
 */
export async function toPasswordHash(password: string, options: HashingOptions): Promise<string> {
  if (isPasswordHash(password)) return password;
  return (await hash(password, options.cost)).replace(/^\$2b\$/, `$${options.version}$`);
}

/** Whether `password` (clear or already hashed) is the one `stored` was made from. */
export async function passwordMatches(password: string, stored: string): Promise<boolean> {
  if (password === stored) return true;
  if (isPasswordHash(password) || !BCRYPT.test(stored)) return false;
  return verify(password, stored);
}
