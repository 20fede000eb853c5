import type { Kysely } from 'kysely';
import type { Topic } from '../../domain.ts';
import { type Param, prepareRead, type Reader } from '../common/prepared-query.ts';
import type { Database } from '../schema.ts';
import { toTopic } from './topics.ts';

const inOrder = (db: Kysely<Database>) =>
  db.selectFrom('topics').selectAll().orderBy('sort').orderBy('id');
const allInOrder = prepareRead(inOrder);
const childrenInOrder = prepareRead((db: Kysely<Database>, param: Param<{ parentId: number }>) =>
  inOrder(db).where('parent_id', '=', param('parentId')),
);

/** Topics in `sort`, then `id` order; with `parentId`, only that topic's children. */
export async function listTopicsInOrder(
  reader: Reader<Database>,
  parentId?: number,
): Promise<Topic[]> {
  const rows =
    parentId === undefined
      ? await allInOrder(reader, {})
      : await childrenInOrder(reader, { parentId });
  return rows.map(toTopic);
}
