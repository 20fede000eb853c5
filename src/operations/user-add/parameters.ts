import * as z from 'zod';
import { INT32_MAX, integerField } from '../fields.ts';
import { MIN_PASSWORD_LENGTH, passwordKind } from './password.ts';
import { phoneField } from './phone-field.ts';

const CONTROL_CHARACTERS = /\p{Cc}/u;
/**
 * JSON can carry a lone surrogate (`"\ud800"`), which is not text: UTF-8 cannot hold it, so every
 * database would silently store U+FFFD instead (and two such passwords would hash alike).
 */
const UNPAIRED_SURROGATE = 'must be valid Unicode (no unpaired \\ud800–\\udfff escapes)';
const TIME_ZONE_SHAPE = /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/;
const canonicalTimeZones = new Map<string, string | undefined>();

/**
 * The runtime's spelling of an IANA time-zone name it knows (`utc` → `UTC`,
 * `europe/lisbon` → `Europe/Lisbon`), or undefined. Only the letter case is changed, never the
 * zone (a link such as Europe/Kiev stays as sent).
 */
export function canonicalTimeZone(name: string): string | undefined {
  if (canonicalTimeZones.has(name)) return canonicalTimeZones.get(name);
  let canonical: string | undefined;
  if (TIME_ZONE_SHAPE.test(name)) {
    try {
      const resolved = new Intl.DateTimeFormat('en', { timeZone: name }).resolvedOptions().timeZone;
      canonical = resolved.toLowerCase() === name.toLowerCase() ? resolved : name;
    } catch {
      canonical = undefined;
    }
  }
  if (canonicalTimeZones.size < 10_000) canonicalTimeZones.set(name, canonical);
  return canonical;
}

export const userAddParameters = z.strictObject({
  name: z
    .string()
    .trim()
    .min(1, { error: 'must not be empty' })
    .max(128, { error: 'must be at most 128 characters' })
    .refine((v) => !CONTROL_CHARACTERS.test(v), { error: 'must not contain control characters' })
    // osTicket prints a user's name unescaped in its agents' ticket view.
    .refine((v) => !/[<>]/.test(v), { error: 'must not contain < or >' })
    .refine((v) => v.isWellFormed(), { error: UNPAIRED_SURROGATE }),
  email: z
    .string()
    .trim()
    .max(255, { error: 'must be at most 255 characters' })
    .pipe(z.email({ error: 'must be a valid email address' }))
    .meta({
      format: 'email',
      // The rule the server applies (narrower than `format: email`), after trimming the ends.
      pattern: `^\\s*(?:${z.regexes.email.source.slice(1, -1)})\\s*$`,
      description: 'Unique case-insensitively.',
    }),
  password: z
    .string()
    .min(1, { error: 'must not be empty' })
    .max(255, { error: 'must be at most 255 characters' })
    .refine((v) => v.isWellFormed(), { error: UNPAIRED_SURROGATE })
    // Only for a value no other rule refused: one problem, one message.
    .refine(
      (v) =>
        v === '' ||
        !v.isWellFormed() ||
        passwordKind(v) !== 'plain' ||
        [...v].length >= MIN_PASSWORD_LENGTH,
      {
        error: `must be at least ${MIN_PASSWORD_LENGTH} characters (or a bcrypt hash or MD5 hex digest)`,
      },
    )
    .meta({
      description:
        'A bcrypt hash, a 32-character lower-case hex MD5 digest or (not in osTicket mode) an argon2 hash is stored as sent; anything else is a password of at least 6 characters, stored bcrypt-hashed.',
    }),
  timezone: z
    .string()
    .max(64, { error: 'must be at most 64 characters' })
    .pipe(
      z.string().transform((name, context) => {
        const canonical = canonicalTimeZone(name);
        if (canonical === undefined) {
          context.addIssue({
            code: 'custom',
            message: 'must be an IANA time zone name, e.g. Europe/Lisbon or UTC',
          });
          return z.NEVER;
        }
        return canonical;
      }),
    )
    .meta({ description: 'An IANA time zone name.', examples: ['Europe/Lisbon', 'UTC'] }),
  phone: phoneField(),
  org_id: integerField(0, INT32_MAX),
  default_email_id: integerField(0, INT32_MAX),
  status: integerField(0, INT32_MAX),
});

export type UserAddParameters = z.output<typeof userAddParameters>;
