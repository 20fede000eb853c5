import type { Kysely } from 'kysely';
import type { Dialect } from '../dialects/dialect.ts';
import { createIndexIfMissing, TIMESTAMP, withCharset, withId } from './column-types.ts';

/**
 * The catalogue on deskgate's own schema (decision 250): departments become a tree with a state,
 * SLA plans get osTicket's schedule id, and FAQ categories (a tree) and FAQs are new. The default
 * department and SLA plan of migration 006 are what a fresh osTicket has; it has no FAQ.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const name = dialect.name;
  await db.schema
    .alterTable('departments')
    .addColumn('parent_id', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('departments')
    .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('active'))
    .execute();
  await db.schema
    .alterTable('sla_plans')
    .addColumn('schedule_id', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await withCharset(withId(db.schema.createTable('faq_categories'), name), name)
    .addColumn('parent_id', 'integer', (c) => c.notNull())
    .addColumn('visibility', 'integer', (c) => c.notNull())
    .addColumn('name', 'varchar(125)', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('notes', 'text', (c) => c.notNull())
    .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
    .addColumn('updated_at', TIMESTAMP, (c) => c.notNull())
    .execute();

  await withCharset(withId(db.schema.createTable('faqs'), name), name)
    .addColumn('category_id', 'integer', (c) => c.notNull().references('faq_categories.id'))
    .addColumn('published', 'integer', (c) => c.notNull())
    .addColumn('question', 'varchar(255)', (c) => c.notNull().unique())
    .addColumn('answer', 'text', (c) => c.notNull())
    .addColumn('keywords', 'text', (c) => c.notNull())
    .addColumn('notes', 'text', (c) => c.notNull())
    .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
    .addColumn('updated_at', TIMESTAMP, (c) => c.notNull())
    .execute();
  await createIndexIfMissing(db, name, {
    name: 'faqs_category_id',
    table: 'faqs',
    columns: ['category_id', 'id'],
  });
}
