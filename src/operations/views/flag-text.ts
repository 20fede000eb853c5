import * as z from 'zod';

/** A yes/no the original answered as the string "1" or "0". */
export const flagText = (description?: string) => {
  const flag = z.enum(['0', '1']);
  return description === undefined ? flag : flag.meta({ description });
};

/** `true` as "1", `false` as "0". */
export const flagOf = (value: boolean): '0' | '1' => (value ? '1' : '0');
