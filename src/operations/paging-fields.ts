import { z } from 'zod';
import { integerField } from './fields.ts';
import { decodeUserCursor } from './user-all/user-cursor.ts';

/** `parameters.limit` of a list: 1–1000; absent, the list answers every match up to DESKGATE_MAX_LIST. */
export function limitField(what: string) {
  return integerField(1, 1000)
    .optional()
    .meta({
      description: `${what} per page, 1 to 1000. Without it, every match up to DESKGATE_MAX_LIST (default 10,000); more → 400 too_many_results.`,
    });
}

/** `parameters.after`: the `next` value of the previous page, an opaque (time, id) position. */
export function afterField() {
  return z
    .string()
    .transform((cursor, context) => {
      const position = decodeUserCursor(cursor);
      if (!position) {
        context.addIssue({
          code: 'custom',
          message: 'must be the "next" value of an earlier page',
        });
        return z.NEVER;
      }
      return position;
    })
    .optional()
    .meta({ description: 'The `next` value of the previous page.' });
}

/** The `next` member of a page's answer. */
export const nextField = z
  .string()
  .optional()
  .meta({ description: 'Present when more follow: pass it as `parameters.after`.' });
