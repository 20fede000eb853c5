import { z } from 'zod';

/** A value the original answered as a string of digits (an id, a count), described. */
export const digitsText = (description: string) =>
  z
    .string()
    .regex(/^[0-9]+$/)
    .meta({ description });
