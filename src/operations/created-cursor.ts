import type { CreatedPosition } from '../domain.ts';
import type { ListCursor } from './list-page.ts';

const TIMESTAMP = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/;

/**
 * The `next` value of a page ordered by creation (user/all, ticket/all, tasks/all): the last row's (created, id), base64url-encoded. It is
 * opaque to callers, so its shape can change; only this module reads it.
 */
export function encodeCreatedCursor(position: CreatedPosition): string {
  return Buffer.from(`${position.created}|${position.id}`).toString('base64url');
}

/** The position a cursor names, or undefined when the text is not one of ours. */
export function decodeCreatedCursor(cursor: string): CreatedPosition | undefined {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(cursor)) return undefined;
  const [created, id, ...rest] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (rest.length > 0 || created === undefined || !TIMESTAMP.test(created)) return undefined;
  if (id === undefined || !/^[1-9][0-9]{0,9}$/.test(id)) return undefined;
  return { created, id: Number(id) };
}

/** The cursor of the lists ordered by creation, for readList and listParameters. */
export const CREATED_CURSOR: ListCursor<CreatedPosition> = {
  encode: encodeCreatedCursor,
  decode: decodeCreatedCursor,
};
