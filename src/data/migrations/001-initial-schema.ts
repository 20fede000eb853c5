import type { Kysely } from 'kysely';
import type { Dialect } from '../dialects/dialect.ts';
import { TIMESTAMP, withCharset, withId } from './column-types.ts';
import { createOwnTables } from './own-tables.ts';

export async function up(db: Kysely<unknown>, { name: dialect }: Dialect): Promise<void> {
  await withCharset(withId(db.schema.createTable('topics'), dialect), dialect)
    .addColumn('parent_id', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_public', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('name', 'varchar(128)', (c) => c.notNull())
    .addColumn('notes', 'text', (c) => c.notNull())
    .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
    .addColumn('updated_at', TIMESTAMP, (c) => c.notNull())
    .execute();
  // As osTicket: a name is unique among its siblings.
  await db.schema
    .createIndex('topics_parent_name_unique')
    .on('topics')
    .columns(['parent_id', 'name'])
    .unique()
    .execute();

  await withCharset(withId(db.schema.createTable('users'), dialect), dialect)
    .addColumn('org_id', 'integer', (c) => c.notNull())
    .addColumn('default_email_id', 'integer', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('name', 'varchar(128)', (c) => c.notNull())
    .addColumn('phone', 'bigint', (c) => c.notNull())
    .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
    .addColumn('updated_at', TIMESTAMP, (c) => c.notNull())
    .execute();

  await withCharset(withId(db.schema.createTable('user_emails'), dialect), dialect)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('address', 'varchar(255)', (c) => c.notNull())
    .addColumn('address_key', 'varchar(255)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('user_emails_address_key_unique')
    .on('user_emails')
    .column('address_key')
    .unique()
    .execute();

  await withCharset(withId(db.schema.createTable('user_accounts'), dialect), dialect)
    .addColumn('user_id', 'integer', (c) =>
      c.notNull().unique().references('users.id').onDelete('cascade'),
    )
    .addColumn('timezone', 'varchar(64)', (c) => c.notNull())
    .addColumn('password_hash', 'varchar(255)', (c) => c.notNull())
    .addColumn('registered_at', TIMESTAMP, (c) => c.notNull())
    .execute();

  await withCharset(withId(db.schema.createTable('api_keys'), dialect), dialect)
    .addColumn('name', 'varchar(128)', (c) => c.notNull())
    .addColumn('key_hash', 'char(64)', (c) => c.notNull().unique())
    .addColumn('scopes', 'varchar(64)', (c) => c.notNull())
    .addColumn('allow_ips', 'text', (c) => c.notNull())
    .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
    .addColumn('last_used_at', TIMESTAMP)
    .addColumn('revoked_at', TIMESTAMP)
    .execute();

  await createOwnTables(db, dialect, '');
}
