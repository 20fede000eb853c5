import type { Kysely } from 'kysely';
import type { Topic } from '../../domain.ts';
import { type Param, prepareRead, type Reader } from '../common/prepared-query.ts';
import type { OsticketDatabase } from './schema.ts';
import { TOPIC_COLUMNS, toTopic } from './topics.ts';

const inOrder = (db: Kysely<OsticketDatabase>) =>
  db.selectFrom('help_topic').select(TOPIC_COLUMNS).orderBy('sort').orderBy('topic_id');
const allInOrder = prepareRead(inOrder);
const childrenInOrder = prepareRead(
  (db: Kysely<OsticketDatabase>, param: Param<{ parentId: number }>) =>
    inOrder(db).where('topic_pid', '=', param('parentId')),
);

/**
 * Topics in `sort`, then `topic_id` order; with `parentId`, only that topic's children. Read
 * from osTicket's real columns (the state is in `flags`; help_topic has no `isactive` since 1.11).
 */
export async function listTopicsInOrder(
  reader: Reader<OsticketDatabase>,
  parentId?: number,
): Promise<Topic[]> {
  const rows =
    parentId === undefined
      ? await allInOrder(reader, {})
      : await childrenInOrder(reader, { parentId });
  return rows.map(toTopic);
}
