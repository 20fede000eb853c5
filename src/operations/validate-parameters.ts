import type { z } from 'zod';
import { DeskgateError, type FieldError } from '../errors.ts';
import { invalidParametersMessage } from '../messages.ts';

function toFieldErrors(issues: readonly z.core.$ZodIssue[], operation: string): FieldError[] {
  const errors: FieldError[] = [];
  for (const issue of issues) {
    const base = ['parameters', ...issue.path.map(String)].join('.');
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        errors.push({ field: `${base}.${key}`, message: `is not a parameter of ${operation}` });
      }
    } else if (
      (issue.code === 'invalid_type' || issue.code === 'invalid_union') &&
      issue.input === undefined
    ) {
      errors.push({ field: base, message: 'is required' });
    } else {
      errors.push({ field: base, message: issue.message });
    }
  }
  return errors;
}

/** Validates `parameters` against an operation's schema, reporting every problem at once. */
export function validateParameters<Schema extends z.ZodType>(
  schema: Schema,
  parameters: unknown,
  operation: string,
): z.output<Schema> {
  const result = schema.safeParse(parameters, { reportInput: true });
  if (result.success) return result.data;
  const errors = toFieldErrors(result.error.issues, operation);
  const problems = errors.map((e) => `${e.field} ${e.message}`);
  throw new DeskgateError('invalid_parameters', invalidParametersMessage(problems), { errors });
}
