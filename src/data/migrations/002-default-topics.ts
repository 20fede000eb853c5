import type { Kysely } from 'kysely';
import type { Dialect } from '../dialects/dialect.ts';
import { now } from '../time.ts';

/** The help topics a fresh osTicket install has, with osTicket's ids. */
export const DEFAULT_TOPICS = [
  { id: 1, parent_id: 0, name: 'General Inquiry', notes: 'Questions about products or services' },
  {
    id: 2,
    parent_id: 0,
    name: 'Feedback',
    notes: 'Tickets that primarily concern the sales and billing departments',
  },
  {
    id: 10,
    parent_id: 0,
    name: 'Report a Problem',
    notes: 'Product, service, or equipment related issues',
  },
  {
    id: 11,
    parent_id: 10,
    name: 'Access Issue',
    notes: 'Report an inability access a physical or virtual asset',
  },
] as const;

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const at = now();
  const rows = DEFAULT_TOPICS.map((t) => ({
    ...t,
    is_public: 1,
    sort: 0,
    created_at: at,
    updated_at: at,
  }));
  // Typed loosely on purpose: a migration must keep working after the schema types move on.
  await (db as Kysely<{ topics: (typeof rows)[number] }>)
    .insertInto('topics')
    .values(rows)
    .execute();
  await dialect.syncIdSequence(db, 'topics');
}
