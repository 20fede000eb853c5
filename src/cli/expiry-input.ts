import { formatTimestamp } from '../data/time.ts';
import { UsageError } from './command.ts';

const UNIT_MS = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 } as const;
const DURATION = /^([0-9]{1,9})([smhdw])$/;
/** A date, or a date and time (`T` or a space; seconds optional), UTC unless it names an offset. */
const DATE_TIME =
  /^([0-9]{4}-[0-9]{2}-[0-9]{2})(?:[T ]([0-9]{2}:[0-9]{2}(?::[0-9]{2})?)(Z|[+-][0-9]{2}:[0-9]{2})?)?$/;
/** Later than this is a typo, not a plan (and past what every database's timestamp text holds). */
const LATEST = Date.parse('9999-12-31T23:59:59Z');

/**
 * A duration such as `90s`, `15m`, `12h`, `30d`, `2w` (one number, one unit), in milliseconds;
 * a UsageError naming `option` otherwise.
 */
export function parseDuration(value: string, option: string): number {
  const match = DURATION.exec(value.trim());
  if (value.trim() === '0') return 0;
  if (!match)
    throw new UsageError(
      `${option} takes a duration such as 30m, 12h, 7d or 2w; got ${JSON.stringify(value)}`,
    );
  return Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
}

/**
 * When a key given `--expires value` at `nowMs` stops working, as a UTC timestamp: a duration
 * from now (rounded up to the second), a date (its 00:00:00 UTC), a date and time (UTC unless an
 * offset is named), or `never` (null). Throws a UsageError for anything else or a time not in
 * the future.
 */
export function parseExpiry(value: string, option: string, nowMs: number): string | null {
  const text = value.trim();
  if (text === 'never') return null;
  let at: number;
  if (DURATION.test(text)) {
    at = Math.ceil((nowMs + parseDuration(text, option)) / 1_000) * 1_000;
  } else {
    const match = DATE_TIME.exec(text);
    const [, date = '', time = '00:00', zone = 'Z'] = match ?? [];
    // Date.parse rolls 2026-02-30 over to March: a date that does not exist is refused instead.
    const day = Date.parse(`${date}T00:00:00Z`);
    const exists =
      match !== null && !Number.isNaN(day) && formatTimestamp(new Date(day)).startsWith(date);
    at = match && exists ? Date.parse(`${date}T${time}${zone}`) : Number.NaN;
    if (Number.isNaN(at))
      throw new UsageError(
        `${option} takes a duration (30d, 12h), a date (2027-01-31, UTC), a date and time (2027-01-31T18:00:00Z) or never; got ${JSON.stringify(value)}`,
      );
  }
  if (at <= nowMs)
    throw new UsageError(`${option} must be in the future; got ${JSON.stringify(value)}`);
  if (at > LATEST)
    throw new UsageError(`${option} is too far in the future; got ${JSON.stringify(value)}`);
  return formatTimestamp(new Date(at));
}
