import { z } from 'zod';

/**
 * A whole number in [min, max], sent as a JSON integer or a string of ASCII digits
 * (clients of the PHP service send both). Output: a number.
 */
export function integerField(min: number, max: number) {
  const message = `must be an integer from ${min} to ${max} (a JSON number or a string of digits)`;
  // The meta is for the OpenAPI document: JSON Schema applies minimum/maximum to numbers only.
  return z
    .union([z.int(), z.string().regex(/^[0-9]{1,20}$/, { error: message })], { error: message })
    .transform(Number)
    .pipe(z.number().min(min, { error: message }).max(max, { error: message }))
    .meta({
      description: `An integer from ${min} to ${max}, as a JSON number or a digit string.`,
      minimum: min,
      maximum: max,
    });
}

export const INT32_MAX = 2147483647;
