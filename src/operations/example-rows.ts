import type { RawBuilder } from 'kysely';

/** Where an operation's example rows go: deskgate's own schema, or an osTicket database. */
export interface ExampleRowsTarget {
  /** Runs a statement (kysely's `sql` template) on deskgate's own schema; undefined in osTicket mode. */
  own: ((statement: RawBuilder<unknown>) => Promise<void>) | undefined;
  /** osTicket's database and its table prefix; undefined on deskgate's own schema. */
  osticket:
    | { prefix: string; query(statement: string, values?: unknown[]): Promise<unknown> }
    | undefined;
  /** When the examples' rows were made (inside the look-ups' example ranges). */
  created: string;
}

/**
 * The rows only one operation's examples read, kept beside it: `src/operations/<folder>/example-rows.ts`
 * exporting `addExampleRows`. test/conformance/example-data.ts finds these files by reading the
 * folders (no list to extend) and runs each before the look-ups' examples, on every database kind.
 * Test support only: the build leaves these files out (tsconfig.build.json).
 */
export type AddExampleRows = (target: ExampleRowsTarget) => Promise<void>;
