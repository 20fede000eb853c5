import { DeskgateError } from '../errors.ts';
import { tooManyResultsMessage } from '../messages.ts';

/**
 * How many rows a list asks the database for (SPEC §8c): with `limit`, one more than the page
 * (whether it exists says whether a next page does); without, every match up to `maxList`, and
 * one more to tell whether there are more than that.
 */
export function rowsToFetch(limit: number | undefined, maxList: number): number {
  return (limit ?? maxList) + 1;
}

/**
 * The page out of the rows fetched, or 400 too_many_results (naming the count, which `count`
 * gives) when a list without `limit` matched more than `maxList`. Never truncates silently.
 */
export async function pageOfRows<Row>(
  rows: Row[],
  limit: number | undefined,
  maxList: number,
  count: () => Promise<number>,
): Promise<{ page: Row[]; more: boolean }> {
  if (limit === undefined) {
    if (rows.length > maxList) {
      throw new DeskgateError('too_many_results', tooManyResultsMessage(await count(), maxList));
    }
    return { page: rows, more: false };
  }
  return { page: rows.slice(0, limit), more: rows.length > limit };
}
