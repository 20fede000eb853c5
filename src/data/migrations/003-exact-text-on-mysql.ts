import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../dialects/dialect.ts';
import { findBinaryCollation, makeColumnBinary } from './binary-collation.ts';

/**
 * One behaviour on every database. MySQL's default collations ignore case and accents, so
 * Idempotency-Keys differing in case collided and a topic "feedback" beside "Feedback" broke its
 * unique index, while SQLite and PostgreSQL tell them apart: the compared columns become
 * byte-wise. MySQL's TEXT holds 65,535 bytes, fewer than the 65,535 characters topic notes may
 * have elsewhere: notes become MEDIUMTEXT. SQLite and PostgreSQL already behave so.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect.name !== 'mysql') return;
  const collation = await findBinaryCollation(db);
  await makeColumnBinary(db, 'topics', 'name', 'varchar(128)', collation);
  await sql`alter table topics modify notes mediumtext not null`.execute(db);
  await makeColumnBinary(db, 'idempotency_keys', 'idempotency_key', 'varchar(255)', collation);
  await makeColumnBinary(db, 'user_emails', 'address_key', 'varchar(255)', collation);
}
