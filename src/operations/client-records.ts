import type * as z from 'zod';

const RECORDS = new Map<z.ZodType, string>();

/**
 * Names `schema` for the typed client: scripts/generate-client-types.ts writes it as one exported
 * type of that name, and every answer containing it refers to it. Declared next to the schema, so
 * a new record needs no edit elsewhere.
 */
export function clientRecord(schema: z.ZodType, name: string): void {
  RECORDS.set(schema, name);
}

/** Every record named so far (all of them once the registry is loaded), by name. */
export function clientRecords(): [z.ZodType, string][] {
  return [...RECORDS].sort(([, a], [, b]) => a.localeCompare(b));
}
