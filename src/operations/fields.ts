import * as z from 'zod';

/** The digit strings a JSON integer field also takes: at most this many characters. */
const MAX_DIGITS = 20;

/**
 * Alternatives matching the decimal numbers 1 … max without leading zeros: every shorter length,
 * then, per digit of `max`, the numbers that share its prefix and are lower at that digit.
 */
function upToMax(max: string): string[] {
  const alternatives: string[] = [];
  if (max.length > 1) alternatives.push(`[1-9][0-9]{0,${max.length - 2}}`);
  for (let at = 0; at < max.length; at++) {
    const digit = Number(max[at]);
    const lowest = at === 0 ? 1 : 0;
    if (digit - 1 < lowest) continue;
    const rest = max.length - at - 1;
    const range = digit - 1 === lowest ? String(lowest) : `[${lowest}-${digit - 1}]`;
    alternatives.push(`${max.slice(0, at)}${range}${rest > 0 ? `[0-9]{${rest}}` : ''}`);
  }
  alternatives.push(max);
  return alternatives;
}

/**
 * A regular expression for the digit strings whose value is in [min, max] (min 0 or 1), leading
 * zeros allowed (the service reads "007" as 7), so that the OpenAPI document states the range
 * of string values too; JSON Schema's minimum/maximum apply to numbers only.
 */
export function digitRangePattern(min: 0 | 1, max: number): RegExp {
  const positive = upToMax(String(max)).join('|');
  return new RegExp(min === 0 ? `^(?:0+|0*(?:${positive}))$` : `^0*(?:${positive})$`);
}

/** One schema per range: the operations ask for the same few ranges about fifty times at start. */
const integerFields = new Map<string, ReturnType<typeof buildIntegerField>>();

/**
 * A whole number in [min, max], sent as a JSON integer or a string of ASCII digits (clients of
 * the PHP service send both), min 0 or 1. Output: a number.
 */
export function integerField(min: 0 | 1, max: number) {
  const key = `${min}-${max}`;
  let field = integerFields.get(key);
  if (!field) {
    field = buildIntegerField(min, max);
    integerFields.set(key, field);
  }
  return field;
}

function buildIntegerField(min: 0 | 1, max: number) {
  const message = `must be an integer from ${min} to ${max} (a JSON number or a string of digits)`;
  return z
    .union(
      [
        z.int({ error: message }).min(min, { error: message }).max(max, { error: message }),
        z
          .string()
          .max(MAX_DIGITS, { error: message })
          .regex(digitRangePattern(min, max), { error: message }),
      ],
      { error: message },
    )
    .transform(Number)
    .meta({
      description: `An integer from ${min} to ${max}, as a JSON number or a digit string (at most ${MAX_DIGITS} characters).`,
      // For tools that read only the top level; the branches carry the exact rules.
      minimum: min,
      maximum: max,
    });
}

export const INT32_MAX = 2147483647;
