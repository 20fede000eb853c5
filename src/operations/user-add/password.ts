import { hash, verify } from '@node-rs/bcrypt';

const BCRYPT = /^\$2[aby]\$(0[4-9]|[12][0-9]|3[01])\$[./A-Za-z0-9]{53}$/;
const ARGON2 = /^\$argon2(i|id)\$v=\d+\$m=\d+,t=\d+,p=\d+\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+$/;

/** True for a complete bcrypt or argon2 hash, which is stored as given. */
export function isPasswordHash(value: string): boolean {
  return BCRYPT.test(value) || ARGON2.test(value);
}

/**
 * The value to store: a recognised hash as it is, anything else bcrypt-hashed on the libuv
 * thread pool (never on the event loop). `$2y$` is the prefix osTicket's PHP verifies; it names
 * the same algorithm as the `$2b$` @node-rs/bcrypt 1.x writes, so only the label changes.
 */
export async function toPasswordHash(password: string, cost: number): Promise<string> {
  if (isPasswordHash(password)) return password;
  return (await hash(password, cost)).replace(/^\$2b\$/, '$2y$');
}

/** Whether `password` (clear or already hashed) is the one `stored` was made from. */
export async function passwordMatches(password: string, stored: string): Promise<boolean> {
  if (password === stored) return true;
  if (isPasswordHash(password) || !BCRYPT.test(stored)) return false;
  return verify(password, stored);
}
