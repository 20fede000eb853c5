import { z } from 'zod';
import { INT32_MAX, integerField } from '../fields.ts';

const CONTROL_CHARACTERS = /\p{Cc}/u;
const TIME_ZONE_SHAPE = /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/;
const knownTimeZones = new Map<string, boolean>();

/** True for an IANA name the runtime's time-zone database knows (`Europe/Lisbon`, `UTC`). */
export function isKnownTimeZone(name: string): boolean {
  let known = knownTimeZones.get(name);
  if (known === undefined) {
    try {
      new Intl.DateTimeFormat('en', { timeZone: name });
      known = TIME_ZONE_SHAPE.test(name);
    } catch {
      known = false;
    }
    if (knownTimeZones.size < 10_000) knownTimeZones.set(name, known);
  }
  return known;
}

export const userAddParameters = z.strictObject({
  name: z
    .string()
    .trim()
    .min(1, { error: 'must not be empty' })
    .max(128, { error: 'must be at most 128 characters' })
    .refine((v) => !CONTROL_CHARACTERS.test(v), { error: 'must not contain control characters' }),
  email: z
    .string()
    .trim()
    .max(255, { error: 'must be at most 255 characters' })
    .pipe(z.email({ error: 'must be a valid email address' })),
  password: z
    .string()
    .min(1, { error: 'must not be empty' })
    .max(255, { error: 'must be at most 255 characters' }),
  timezone: z.string().max(64, { error: 'must be at most 64 characters' }).refine(isKnownTimeZone, {
    error: 'must be an IANA time zone name, e.g. Europe/Lisbon or UTC',
  }),
  phone: integerField(0, 999_999_999_999_999),
  org_id: integerField(0, INT32_MAX),
  default_email_id: integerField(0, INT32_MAX),
  status: integerField(0, INT32_MAX),
});

export type UserAddParameters = z.output<typeof userAddParameters>;
