import { stdSerializers } from 'pino';
import { scrubErrorText } from './scrub-error-text.ts';

/**
 * Fields in which database drivers put the values of the failed statement: mysql2's `sql`
 * (the statement with its values inlined, password hashes included) and `sqlMessage`;
 * node-postgres's `detail` ("Failing row contains (…)"), `where`, `internalQuery`; parameters.
 */
const VALUE_FIELDS = new Set([
  'sql',
  'sqlMessage',
  'detail',
  'where',
  'internalQuery',
  'parameters',
  'values',
]);

function scrub(value: Record<string, unknown>, depth: number): Record<string, unknown> {
  for (const key of Object.keys(value)) {
    const field = value[key];
    if (VALUE_FIELDS.has(key)) delete value[key];
    else if (typeof field === 'string') value[key] = scrubErrorText(field);
    else if (field && typeof field === 'object' && depth < 4)
      scrub(field as Record<string, unknown>, depth + 1);
  }
  return value;
}

/**
 * pino's error serializer, minus the values of failed statements: an error log line must not
 * carry what was being written (password hashes, addresses). The error's type, code, message
 * and stack stay, so the cause remains clear.
 */
export function serializeError(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  return scrub(stdSerializers.err(error) as unknown as Record<string, unknown>, 0);
}
