import type * as z from 'zod';
import { UsageError } from './command.ts';

/**
 * Command-line options checked by an operation's own parameter schema, so a command stores what
 * the operation would; a UsageError naming the option (`grace_period` → `--grace-period`).
 */
export function parseOptionParameters<Schema extends z.ZodType>(
  schema: Schema,
  fields: Record<string, unknown>,
): z.output<Schema> {
  const defined = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
  // One parse a process: zod's compiled fast path would cost more than it saves (src/config.ts).
  const parsed = schema.safeParse(defined, { jitless: true });
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw optionError(String(issue?.path[0] ?? 'name'), issue?.message);
}

/**
 * A UsageError naming the option of a parameter (`grace_period` → `--grace-period`) with the
 * schema's message in a command line's words: a flag is text, so "a JSON number or a string of
 * digits" (what the HTTP interface takes) reads as a whole number there.
 */
export function optionError(parameter: string, message = 'is not valid'): UsageError {
  const option = parameter.replaceAll('_', '-');
  const worded = message.replace(
    /^must be an integer from (\d+) to (\d+) \(a JSON number or a string of digits\)$/,
    'must be a whole number from $1 to $2',
  );
  return new UsageError(`--${option} ${worded}`);
}
