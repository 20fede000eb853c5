import type * as z from 'zod';
import type { User } from '../../data/users/user.ts';
import { asDigits, asText, asTimestamp, defineView } from './view-definition.ts';

/**
 * A user as the look-ups show it: every value a string. The original service returned `user_id`,
 * `name` and `created`; the rest is added. Never a password hash.
 */
const userView = defineView<User>()(
  'UserRecord',
  'A user; every value is a string, never a password hash.',
  {
    user_id: asDigits((user) => user.id),
    name: asText((user) => user.name),
    email: asText((user) => user.email, 'The default address; "" if the user has none.'),
    org_id: asDigits((user) => user.orgId, '"0" when none.'),
    status: asDigits((user) => user.status),
    timezone: asText((user) => user.timezone, 'An IANA time zone name; "" if none is set.'),
    phone: asText(
      (user) => user.phone,
      'As stored, unchanged: the digits as typed (osTicket may add `X` and an extension); "" when none.',
    ),
    created: asTimestamp((user) => user.created),
    updated: asTimestamp((user) => user.updated),
  },
);

export const { schema: userViewSchema, toView: toUserView } = userView;

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
