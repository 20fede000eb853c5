import * as z from 'zod';

// Months 01–12, days 01–31, hours 00–23, minutes and seconds 00–59: the document's pattern refuses
// what no calendar has; isRealDate then refuses the rest (2026-02-30).
const SHAPE =
  /^(\d{4})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])(?: ([01]\d|2[0-3]):([0-5]\d):([0-5]\d))?$/;
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
 * An inclusive bound of a creation-date range, `YYYY-MM-DD` or `YYYY-MM-DD HH:MM:SS`. A start is
 * output as the timestamp it stands for (a bare date: its first second); an end is output as
 * sent, since what a bare end date means is a setting (endBound). Timestamps compare as text
 * (they are all the same shape).
 */
export function dateBound(edge: 'start' | 'end') {
  return z
    .string()
    .regex(SHAPE, { error: MESSAGE, abort: true })
    .refine(isRealDate, { error: 'is not a calendar date', abort: true })
    .transform((text) => (text.length > 10 || edge === 'end' ? text : `${text} 00:00:00`))
    .meta({
      description:
        edge === 'start'
          ? 'Inclusive; a bare date means its first second.'
          : 'Inclusive; a bare date means its last second (under DESKGATE_END_DATE=midnight its first, as the PHP service compared). Before `start_date` (a bare date taken to its last second): 400 `invalid_parameters`.',
      examples: [edge === 'start' ? '2026-11-01' : '2026-11-30 23:59:59'],
    });
}

/**
 * The last timestamp of a range whose `end_date` is `text`: a timestamp as it is; a bare date
 * up to its last second (`whole-day`), or its first second only (`midnight`, what the PHP
 * service's `created <= 'YYYY-MM-DD'` compared).
 */
export function endBound(text: string, mode: 'whole-day' | 'midnight'): string {
  if (text.length > 10) return text;
  return `${text} ${mode === 'whole-day' ? '23:59:59' : '00:00:00'}`;
}

/**
 * The parameters of a list by date range: `start_date`, `end_date` and `shape`'s. A range whose
 * start is after its end (a bare end date counting to its last second, so no range is refused
 * that DESKGATE_END_DATE=whole-day reads as valid) is a 400 naming it: an empty list would hide
 * the mistake (issue 37). The check runs once both dates are valid.
 */
export function dateRangeParameters<Shape extends z.core.$ZodLooseShape>(shape: Shape) {
  return z
    .strictObject({ start_date: dateBound('start'), end_date: dateBound('end'), ...shape })
    .superRefine((parameters, context) => {
      const { start_date: start, end_date: end } = parameters as {
        start_date: string;
        end_date: string;
      };
      if (start > endBound(end, 'whole-day')) {
        context.addIssue({
          code: 'custom',
          path: ['end_date'],
          message: `must not be before parameters.start_date (${end} is before ${start})`,
        });
      }
    });
}

/** A list's document example of sort `creationDate`: what was created within `range`. */
export function creationDateExample(
  summary: string,
  range: { start_date: string; end_date: string; limit?: number },
) {
  return { name: 'by-creation-date', summary, sort: 'creationDate', parameters: range } as const;
}
