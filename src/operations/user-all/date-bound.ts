import { z } from 'zod';

const SHAPE = /^(\d{4})-(\d\d)-(\d\d)(?: (\d\d):(\d\d):(\d\d))?$/;
const MESSAGE = 'must be a date, YYYY-MM-DD or YYYY-MM-DD HH:MM:SS';

function isRealDate(text: string): boolean {
  const match = SHAPE.exec(text);
  if (!match) return false;
  const [year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0] = match
    .slice(1)
    .map((part) => Number(part ?? 0));
  // setUTCFullYear, not Date.UTC: Date.UTC reads years 0–99 as 1900–1999.
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second);
  return (
    date.getUTCFullYear() === year &&
    date.getUTCMonth() + 1 === month &&
    date.getUTCDate() === day &&
    date.getUTCHours() === hour &&
    date.getUTCMinutes() === minute &&
    date.getUTCSeconds() === second
  );
}

/**
 * An inclusive bound of a creation-date range, `YYYY-MM-DD` or `YYYY-MM-DD HH:MM:SS`, as the
 * timestamp it stands for: a bare date is the start of the day for `start`, the end for `end`.
 * Timestamps compare as text (they are all the same shape).
 */
export function dateBound(edge: 'start' | 'end') {
  return z
    .string()
    .regex(SHAPE, { error: MESSAGE, abort: true })
    .refine(isRealDate, { error: 'is not a calendar date' })
    .transform((text) =>
      text.length > 10 ? text : `${text} ${edge === 'start' ? '00:00:00' : '23:59:59'}`,
    )
    .meta({
      description: `Inclusive; a bare date means its ${edge === 'start' ? 'first' : 'last'} second.`,
      examples: [edge === 'start' ? '2026-11-01' : '2026-11-30 23:59:59'],
    });
}
