import type { ListCursor } from '../list-page.ts';

/** Where a topics/all page ended: the last topic's sort position and id (the list's order). */
export interface TopicPosition {
  sort: number;
  id: number;
}

const NUMBER = /^(0|[1-9][0-9]{0,9})$/;

/** topics/all's `next`: the last topic's (sort, id), base64url-encoded, opaque to callers. */
export const TOPIC_CURSOR: ListCursor<TopicPosition> = {
  encode: ({ sort, id }) => Buffer.from(`t|${sort}|${id}`).toString('base64url'),
  decode(cursor) {
    if (!/^[A-Za-z0-9_-]{1,40}$/.test(cursor)) return undefined;
    const [tag, sort, id, ...rest] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
    if (tag !== 't' || rest.length > 0 || !NUMBER.test(sort ?? '') || !NUMBER.test(id ?? '')) {
      return undefined;
    }
    return { sort: Number(sort), id: Number(id) };
  },
};

/** Whether a topic comes after the position in (sort, id) order. */
export function isAfter(topic: TopicPosition, position: TopicPosition): boolean {
  return topic.sort > position.sort || (topic.sort === position.sort && topic.id > position.id);
}
