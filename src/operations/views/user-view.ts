import { z } from 'zod';
import type { User } from '../../data/users/user.ts';
import { clientRecord } from '../client-records.ts';

const TIMESTAMP =
  'YYYY-MM-DD HH:MM:SS: UTC on deskgate’s own schema, the database’s clock in osTicket mode.';
const DIGITS = /^[0-9]+$/;

/**
 * A user as the look-ups show it: every value a string. The original service returned `user_id`,
 * `name` and `created`; the rest is added. Never a password hash.
 */
export const userViewSchema = z
  .strictObject({
    user_id: z.string().regex(DIGITS),
    name: z.string(),
    email: z.string().meta({ description: 'The default address; "" if the user has none.' }),
    org_id: z.string().regex(DIGITS).meta({ description: '"0" when none.' }),
    status: z.string().regex(DIGITS),
    timezone: z.string().meta({ description: 'An IANA time zone name; "" if none is set.' }),
    phone: z.string().meta({
      description:
        'As stored, unchanged: the digits as typed (osTicket may add `X` and an extension); "" when none.',
    }),
    created: z.string().meta({ description: TIMESTAMP }),
    updated: z.string().meta({ description: TIMESTAMP }),
  })
  .meta({ description: 'A user; every value is a string, never a password hash.' });
clientRecord(userViewSchema, 'UserRecord');

export type UserView = z.output<typeof userViewSchema>;

export const USER_EXAMPLE: UserView = {
  user_id: '42',
  name: 'Ann Example',
  email: 'ann@example.com',
  org_id: '0',
  status: '0',
  timezone: 'Europe/Lisbon',
  phone: '351210000000',
  created: '2026-11-22 09:15:02',
  updated: '2026-11-22 09:15:02',
};

export function toUserView(user: User): UserView {
  return {
    user_id: String(user.id),
    name: user.name,
    email: user.email,
    org_id: String(user.orgId),
    status: String(user.status),
    timezone: user.timezone,
    phone: user.phone,
    created: user.created,
    updated: user.updated,
  };
}
