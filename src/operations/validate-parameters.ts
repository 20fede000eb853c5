import type * as z from 'zod';
import { DeskgateError, type FieldError } from '../errors.ts';
import { invalidParametersMessage, shortenedForEcho } from '../messages.ts';

/** Unknown names are echoed back, so their number and length are bounded: the answer stays small. */
const MAX_UNKNOWN_NAMED = 10;

function toFieldErrors(issues: readonly z.core.$ZodIssue[], operation: string): FieldError[] {
  const errors: FieldError[] = [];
  const push = (error: FieldError) => {
    // One value can break two checks with one message (1e300: not a safe integer, too big).
    if (!errors.some((e) => e.field === error.field && e.message === error.message)) {
      errors.push(error);
    }
  };
  for (const issue of issues) {
    const base = ['parameters', ...issue.path.map(String)].join('.');
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys.slice(0, MAX_UNKNOWN_NAMED)) {
        push({
          field: `${base}.${shortenedForEcho(key)}`,
          message: `is not a parameter of ${operation}`,
        });
      }
      const more = issue.keys.length - MAX_UNKNOWN_NAMED;
      if (more > 0) {
        push({
          field: base,
          message: `has ${more} more name${more === 1 ? '' : 's'} that ${operation} does not define`,
        });
      }
    } else if (
      (issue.code === 'invalid_type' || issue.code === 'invalid_union') &&
      issue.input === undefined
    ) {
      push({ field: base, message: 'is required' });
    } else {
      push({ field: base, message: issue.message });
    }
  }
  return errors;
}

const TYPE_NAMES: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  boolean: 'true or false',
  object: 'a JSON object',
  array: 'a JSON array',
};

/**
 * deskgate's wording for a problem a schema gives no message of its own for, instead of the
 * validation library's ("Invalid input: expected string, received number"); the same for every
 * operation. Undefined leaves the library's message (a check every schema words itself).
 */
const deskgateIssueMessage: z.core.$ZodErrorMap = (issue) => {
  switch (issue.code) {
    case 'invalid_type':
      return `must be ${TYPE_NAMES[issue.expected] ?? issue.expected}`;
    case 'too_small':
    case 'too_big': {
      const [word, bound] =
        issue.code === 'too_small' ? ['least', issue.minimum] : ['most', issue.maximum];
      const unit =
        issue.origin === 'string' ? ' characters' : issue.origin === 'array' ? ' items' : '';
      return `must be at ${word} ${String(bound)}${unit}`;
    }
    case 'invalid_format':
      return `must be a valid ${issue.format}`;
    case 'invalid_value':
      return `must be ${issue.values.map((value) => JSON.stringify(value)).join(' or ')}`;
    case 'invalid_union':
      return 'is not valid';
    default:
      return undefined;
  }
};

/** Validates `parameters` against an operation's schema, reporting every problem at once. */
export function validateParameters<Schema extends z.ZodType>(
  schema: Schema,
  parameters: unknown,
  operation: string,
): z.output<Schema> {
  const result = schema.safeParse(parameters);
  if (result.success) return result.data;
  // Parsed again for the report: the inputs in the issues tell a missing field from a wrong one,
  // and asking for them on every parse would cost the valid requests too.
  const report = schema.safeParse(parameters, { reportInput: true, error: deskgateIssueMessage });
  const errors = toFieldErrors(report.success ? [] : report.error.issues, operation);
  const problems = errors.map((e) => `${e.field} ${e.message}`);
  throw new DeskgateError('invalid_parameters', invalidParametersMessage(problems), { errors });
}
