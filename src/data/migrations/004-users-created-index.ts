import type { Kysely } from 'kysely';

/** user/all pages through users in (created, id) order within a creation range: one index scan. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('users_created_at_id')
    .on('users')
    .columns(['created_at', 'id'])
    .execute();
}
