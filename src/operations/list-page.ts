import * as z from 'zod';
import type { Config } from '../config.ts';
import { DeskgateError } from '../errors.ts';
import { tooLargeAnswerMessage, tooManyResultsMessage } from '../messages.ts';
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
        description: `${noun} per page, 1 to ${MAX_PAGE} (fewer when the page reaches DESKGATE_MAX_ANSWER_BYTES; follow \`next\`). Without it, every match is answered at once, up to DESKGATE_MAX_LIST (default 10,000) and DESKGATE_MAX_ANSWER_BYTES (default 4 MiB); more than that → 400 \`too_many_results\`.`,
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
  /** `parameters.after`: where the caller's page starts (undefined: at the start). */
  after: Position | undefined;
  /** DESKGATE_MAX_LIST. */
  maxList: number;
  /** DESKGATE_MAX_ANSWER_BYTES: the most one answer's elements may hold, as JSON. */
  maxBytes: number;
  /** What the list holds, plural, for the error message (`users`). */
  noun: string;
  cursor: ListCursor<Position>;
}

/** The request of a list operation: the caller's `limit` and `after`, within the configured bounds. */
export function listRequest<Position>(
  parameters: { limit?: number | undefined; after?: Position | undefined },
  config: Pick<Config, 'maxList' | 'maxAnswerBytes'>,
  noun: string,
  cursor: ListCursor<Position>,
): ListRequest<Position> {
  return {
    limit: parameters.limit,
    after: parameters.after,
    maxList: config.maxList,
    maxBytes: config.maxAnswerBytes,
    noun,
    cursor,
  };
}

/** A list operation's answer: `total`, the elements' views under `key`, `next` when more follow. */
export function listAnswer<const Key extends string, View>(
  key: Key,
  views: View[],
  next: string | undefined,
) {
  return { total: views.length, [key]: views, ...(next === undefined ? {} : { next }) } as {
    total: number;
    next?: string;
  } & Record<Key, View[]>;
}

/** One answer of a list operation: its elements and, when more follow, the `next` cursor. */
export interface ListAnswer<Element> {
  elements: Element[];
  next?: string;
}

/**
 * How many elements one read asks for: a whole list is read in such chunks, so that an answer
 * too large in bytes stops after the chunk that crossed the bound, not after 10,000 tickets.
 */
export const READ_CHUNK = 200;

/** An element's size in the answer, near enough: its JSON in UTF-8. */
function bytesOf(element: unknown): number {
  return Buffer.byteLength(JSON.stringify(element));
}

/**
 * Reads a list the way every list operation answers one (decisions 150 and 323).
 * `read(count, after)` returns at most `count` elements in the list's order after `after` (the
 * position of an element it answered, or the caller's `parameters.after`); the list is read in
 * chunks of READ_CHUNK, each asked for one more than can be answered, so whether more follow costs
 * no count of the whole match. Without a limit, more than `maxList` matches, or elements holding
 * more than `maxBytes`, throw `too_many_results` instead of cutting the list short. With a limit,
 * a page ends early at `maxBytes` (at least one element) and `next` goes on from there.
 */
export async function readList<Element, Position>(
  request: ListRequest<Position>,
  read: (count: number, after: Position | undefined) => Promise<Element[]>,
  positionOf: (element: Element) => Position,
): Promise<ListAnswer<Element>> {
  const { limit, maxList, maxBytes, noun, cursor } = request;
  const wanted = limit ?? maxList;
  const elements: Element[] = [];
  let bytes = 0;
  let after = request.after;
  const pageEndingAt = (last: Element): ListAnswer<Element> => ({
    elements,
    next: cursor.encode(positionOf(last)),
  });
  for (;;) {
    const count = Math.min(READ_CHUNK, wanted + 1 - elements.length);
    const chunk = await read(count, after);
    for (const element of chunk) {
      const last = elements.at(-1);
      if (elements.length === wanted) {
        if (limit === undefined) {
          throw new DeskgateError('too_many_results', tooManyResultsMessage(noun, maxList));
        }
        return pageEndingAt(last as Element);
      }
      bytes += bytesOf(element);
      if (bytes > maxBytes) {
        if (limit === undefined) {
          throw new DeskgateError('too_many_results', tooLargeAnswerMessage(noun, maxBytes));
        }
        if (last !== undefined) return pageEndingAt(last);
      }
      elements.push(element);
    }
    const last = chunk.at(-1);
    if (chunk.length < count || last === undefined) return { elements };
    after = positionOf(last);
  }
}
