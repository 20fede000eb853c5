import type { z } from 'zod';
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
  const parsed = schema.safeParse(defined);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const option = String(issue?.path[0] ?? 'name').replaceAll('_', '-');
  throw new UsageError(`--${option} ${issue?.message ?? 'is not valid'}`);
}
