import type { Config } from '../config.ts';

/** How an operation works on each layout: both are required, so the type checker names a gap. */
export interface LayoutWays<Result> {
  /** deskgate's own schema (SQLite, PostgreSQL, MySQL/MariaDB). */
  own: () => Result;
  /** osTicket mode: osTicket's tables, and its own code through the plugin. */
  osticket: () => Result;
}

/**
 * The way of the layout deskgate serves. Operations go through this, never `config.schema`
 * (test/operations-read-no-layout.test.ts), so what differs by layout is said in one place.
 */
export function byLayout<Result>(
  { config }: { config: Pick<Config, 'schema'> },
  ways: LayoutWays<Result>,
): Result {
  return config.schema === 'osticket' ? ways.osticket() : ways.own();
}
