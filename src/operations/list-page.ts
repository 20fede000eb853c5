import { z } from 'zod';
import { DeskgateError } from '../errors.ts';
import { tooManyResultsMessage } from '../messages.ts';
import { integerField } from './fields.ts';

/** The most elements one page may ask for with `parameters.limit`. */
export const MAX_PAGE = 1000;

/** How a list operation writes the position after an element into `next`, and reads it back. */
export interface ListCursor<Position> {
  encode(position: Position): string;
  /** The position the text names, or undefined when the text is not one of this list's cursors. */
  decode(cursor: string): Position | undefined;
}

/**
 * The `limit` and `after` parameters every list operation takes (spread them into its parameters
 * schema): without `limit` the whole list (up to DESKGATE_MAX_LIST), with it one page.
 */
export function listParameters<Position>(cursor: ListCursor<Position>, noun: string) {
  return {
    limit: integerField(1, MAX_PAGE)
      .optional()
      .meta({
        description: `${noun} per page, 1 to ${MAX_PAGE}. Without it, every match is answered at once, up to DESKGATE_MAX_LIST (default 10,000); more than that → 400 \`too_many_results\`.`,
      }),
    after: z
      .string()
      .transform((text, context) => {
        const position = cursor.decode(text);
        if (position === undefined) {
          context.addIssue({
            code: 'custom',
            message: 'must be the "next" value of an earlier page',
          });
          return z.NEVER;
        }
        return position;
      })
      .optional()
      .meta({ description: 'The `next` value of the previous page.' }),
  };
}

export interface ListRequest<Position> {
  /** `parameters.limit`: undefined for the whole list. */
  limit: number | undefined;
  /** DESKGATE_MAX_LIST. */
  maxList: number;
  /** What the list holds, plural, for the error message (`users`). */
  noun: string;
  cursor: ListCursor<Position>;
}

/** One answer of a list operation: its elements and, when more follow, the `next` cursor. */
export interface ListAnswer<Element> {
  elements: Element[];
  next?: string;
}

/**
 * Reads a list the way every list operation answers one. `read(count)` returns at most `count`
 * elements in the list's order (after the caller's `after` position); it is asked for one more
 * than can be answered, so whether more follow costs no count of the whole match. Without a
 * limit, more than `maxList` matches throws `too_many_results` instead of cutting the list short.
 */
export async function readList<Element, Position>(
  request: ListRequest<Position>,
  read: (count: number) => Promise<Element[]>,
  positionOf: (element: Element) => Position,
): Promise<ListAnswer<Element>> {
  const { limit, maxList, noun, cursor } = request;
  if (limit === undefined) {
    const elements = await read(maxList + 1);
    if (elements.length > maxList) {
      throw new DeskgateError('too_many_results', tooManyResultsMessage(noun, maxList));
    }
    return { elements };
  }
  const elements = await read(limit + 1);
  if (elements.length <= limit) return { elements };
  const page = elements.slice(0, limit);
  return { elements: page, next: cursor.encode(positionOf(page.at(-1) as Element)) };
}
