import type { CataloguePosition } from '../domain.ts';
import type { ListCursor } from './list-page.ts';

/**
 * The `next` value of a department, SLA or FAQ page: the last element's sort key and id as
 * base64url JSON. Opaque to callers; only this module reads it.
 */
export const CATALOGUE_CURSOR: ListCursor<CataloguePosition> = {
  encode: (position) =>
    Buffer.from(JSON.stringify([position.key, position.id])).toString('base64url'),
  decode(cursor) {
    if (!/^[A-Za-z0-9_-]{1,1024}$/.test(cursor)) return undefined;
    let parsed: unknown;
    try {
      parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    } catch {
      return undefined;
    }
    if (!Array.isArray(parsed) || parsed.length !== 2) return undefined;
    const [key, id] = parsed as unknown[];
    if (typeof key !== 'string' || key.length > 255) return undefined;
    if (typeof id !== 'number' || !Number.isInteger(id) || id < 1 || id > 2_147_483_647) {
      return undefined;
    }
    return { key, id };
  },
};
