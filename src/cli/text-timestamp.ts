import type { Config } from '../config.ts';

/**
 * A stored `YYYY-MM-DD HH:MM:SS` as the commands' text output shows it: ISO 8601, `Z` for UTC
 * (deskgate's own tables are in UTC), `2026-11-27T15:42:25Z`, the form `--expires` takes. In
 * osTicket mode the rows are osTicket's, in the database server's clock (its `time_zone`
 * SYSTEM): shown without a zone, which ISO 8601 reads as local time. `--json` keeps the
 * interface's `YYYY-MM-DD HH:MM:SS` (docs/decisions/341-command-line-times.md).
 */
export function textTimestamp(value: string, config: Pick<Config, 'schema'>): string {
  const iso = value.replace(' ', 'T');
  return config.schema === 'osticket' ? iso : `${iso}Z`;
}
