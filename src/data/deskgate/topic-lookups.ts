import type { Kysely } from 'kysely';
import type { Topic } from '../../domain.ts';
import type { Database } from '../schema.ts';
import { toTopic } from './topics.ts';

/** Topics in `sort`, then `id` order; with `parentId`, only that topic's children. */
export async function listTopicsInOrder(db: Kysely<Database>, parentId?: number): Promise<Topic[]> {
  let query = db.selectFrom('topics').selectAll();
  if (parentId !== undefined) query = query.where('parent_id', '=', parentId);
  const rows = await query.orderBy('sort').orderBy('id').execute();
  return rows.map(toTopic);
}
