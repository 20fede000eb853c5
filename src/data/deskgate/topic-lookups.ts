import type { Kysely } from 'kysely';
import type { Topic } from '../../domain.ts';
import { preparedRead, type Reader } from '../prepared-read.ts';
import type { Database } from '../schema.ts';
import { toTopic } from './topics.ts';

const inOrder = (db: Kysely<Database>) =>
  db.selectFrom('topics').selectAll().orderBy('sort').orderBy('id');
const allInOrder = preparedRead(inOrder, []);
const childrenInOrder = preparedRead(
  (db: Kysely<Database>, parentId: number) => inOrder(db).where('parent_id', '=', parentId),
  [0],
);

/** Topics in `sort`, then `id` order; with `parentId`, only that topic's children. */
export async function listTopicsInOrder(
  reader: Reader<Database>,
  parentId?: number,
): Promise<Topic[]> {
  const rows =
    parentId === undefined ? await allInOrder(reader) : await childrenInOrder(reader, parentId);
  return rows.map(toTopic);
}
