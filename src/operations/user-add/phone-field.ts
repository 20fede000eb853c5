import * as z from 'zod';

/** E.164's 15 digits, plus an international prefix typed before them (`00`, `011`). */
export const PHONE_MAX_DIGITS = 20;
/**
 * Blank, or 1 to PHONE_MAX_DIGITS digits among the punctuation osTicket's phone field takes
 * (its parse strips it): a pattern, so that the OpenAPI document states the rule too.
 */
const PHONE_TEXT = new RegExp(`^(?: *|(?:[+().\\- ]*[0-9]){1,${PHONE_MAX_DIGITS}}[+().\\- ]*)$`);
const MAX_INTEGER = 999_999_999_999_999;
const MESSAGE = `must be a phone number: digits, optionally with + ( ) . - and spaces (at most ${PHONE_MAX_DIGITS} digits), or an integer from 0 to ${MAX_INTEGER}`;

/**
 * The digits osTicket 1.18.1's PhoneField stores for what was typed: `parse` keeps the digits as
 * typed (leading zeros too) and drops the punctuation. Nothing (`""`, `0`, `"0"`) is no phone:
 * osTicket stores a blank field as an empty answer.
 */
export function phoneDigits(typed: string | number): string {
  const digits = String(typed).replace(/[^0-9]/g, '');
  return digits === '0' ? '' : digits;
}

/**
 * A phone as osTicket's phone field takes it: a string of digits with `+ ( ) . -` and spaces, or
 * the seed's integer. Output: the digits to store, `""` for none.
 */
export function phoneField() {
  return z
    .union(
      [
        z.int({ error: MESSAGE }).min(0, { error: MESSAGE }).max(MAX_INTEGER, { error: MESSAGE }),
        z.string().max(64, { error: MESSAGE }).regex(PHONE_TEXT, { error: MESSAGE }),
      ],
      { error: MESSAGE },
    )
    .transform(phoneDigits)
    .meta({
      description:
        'A phone number as osTicket’s phone field takes it: digits as typed (leading zeros kept), `+ ( ) . -` and spaces stripped; or an integer. `""` or 0: no phone.',
      examples: ['0612345678', '+351 21 000 0000', '555-123-4567', 5551234],
      // For tools that read only the top level; the branches carry the exact rules.
      minimum: 0,
      maximum: MAX_INTEGER,
    });
}
