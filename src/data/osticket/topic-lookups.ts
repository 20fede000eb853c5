import type { Kysely } from 'kysely';
import type { Topic } from '../../domain.ts';
import { formatTimestamp } from '../time.ts';
import type { OsticketDatabase } from './schema.ts';

/** osTicket's `help_topic.flags` bit for a topic it offers (Topic::FLAG_ACTIVE); 4 is archived. */
const FLAG_ACTIVE = 2;

interface HelpTopicRow {
  topic_id: number;
  topic_pid: number;
  ispublic: number;
  flags: number | null;
  sort: number;
  topic: string;
  notes: string | null;
  created: string;
  updated: string;
}

/**
 * Topics in `sort`, then `topic_id` order; with `parentId`, only its children. Read from
 * osTicket's real columns: its help_topic has no `isactive` (gone since 1.11), the state is in
 * `flags`.
 */
export async function listTopicsInOrder(
  db: Kysely<OsticketDatabase>,
  parentId?: number,
): Promise<Topic[]> {
  const topics = db.withTables<{ help_topic: HelpTopicRow }>();
  let query = topics
    .selectFrom('help_topic')
    .select([
      'topic_id',
      'topic_pid',
      'ispublic',
      'flags',
      'sort',
      'topic',
      'notes',
      'created',
      'updated',
    ]);
  if (parentId !== undefined) query = query.where('topic_pid', '=', parentId);
  const rows = await query.orderBy('sort').orderBy('topic_id').execute();
  return rows.map((row) => ({
    id: Number(row.topic_id),
    parentId: Number(row.topic_pid),
    isPublic: Number(row.ispublic) === 1,
    isActive: (Number(row.flags ?? 0) & FLAG_ACTIVE) !== 0,
    sort: Number(row.sort),
    name: row.topic,
    notes: row.notes ?? '',
    created: formatTimestamp(row.created),
    updated: formatTimestamp(row.updated),
  }));
}
