import { type Kysely, sql } from 'kysely';

/**
 * The server's exact, byte-wise utf8mb4 collation: NO PAD where the server has one (MariaDB's
 * utf8mb4_nopad_bin, MySQL 8's utf8mb4_0900_bin), so that 'a' and 'a ' differ as they do on
 * SQLite and PostgreSQL; utf8mb4_bin (case- and accent-sensitive, trailing spaces ignored) otherwise.
 */
export async function findBinaryCollation(db: Kysely<unknown>): Promise<string> {
  const { rows } = await sql<{ name: string }>`
    select collation_name as name from information_schema.collations
    where collation_name in ('utf8mb4_nopad_bin', 'utf8mb4_0900_bin')`.execute(db);
  return rows[0]?.name ?? 'utf8mb4_bin';
}

/** Makes a MySQL text column compare byte for byte, keeping its type and NOT NULL. */
export async function makeColumnBinary(
  db: Kysely<unknown>,
  table: string,
  column: string,
  type: string,
  collation: string,
): Promise<void> {
  await sql`alter table ${sql.table(table)} modify ${sql.ref(column)} ${sql.raw(type)} character set utf8mb4 collate ${sql.raw(collation)} not null`.execute(
    db,
  );
}
