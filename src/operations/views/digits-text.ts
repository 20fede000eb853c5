import * as z from 'zod';

/** A value the original answered as a string of digits (an id, a count), described if given. */
export const digitsText = (description?: string) => {
  const digits = z.string().regex(/^[0-9]+$/);
  return description === undefined ? digits : digits.meta({ description });
};
