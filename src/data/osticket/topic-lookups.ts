import type { Kysely } from 'kysely';
import type { Topic } from '../../domain.ts';
import type { OsticketDatabase } from './schema.ts';
import { TOPIC_COLUMNS, toTopic } from './topics.ts';

/**
 * Topics in `sort`, then `topic_id` order; with `parentId`, only that topic's children. Read
 * from osTicket's real columns (the state is in `flags`; help_topic has no `isactive` since 1.11).
 */
export async function listTopicsInOrder(
  db: Kysely<OsticketDatabase>,
  parentId?: number,
): Promise<Topic[]> {
  let query = db.selectFrom('help_topic').select(TOPIC_COLUMNS);
  if (parentId !== undefined) query = query.where('topic_pid', '=', parentId);
  const rows = await query.orderBy('sort').orderBy('topic_id').execute();
  return rows.map(toTopic);
}
