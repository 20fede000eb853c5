import * as z from 'zod';
import { users } from '../../data/users/users.ts';
import { INT32_MAX, integerField } from '../fields.ts';
import { defineOperation } from '../operation.ts';
import { toUserView, USER_EXAMPLE, userViewSchema } from '../views/user-view.ts';

/** Its parameters, by the `sort` that selects them. */
export const userSpecificParameters = {
  id: z.strictObject({ id: integerField(1, INT32_MAX) }),
  email: z.strictObject({
    email: z
      .string()
      .trim()
      .min(1, { error: 'must not be empty' })
      .max(255, { error: 'must be at most 255 characters' })
      .meta({ description: 'Compared case-insensitively.', examples: ['ann@example.com'] }),
  }),
};

export const userSpecificResponse = z
  .strictObject({
    total: z.literal(1),
    users: z.array(userViewSchema).length(1),
  })
  .meta({ description: 'The user found, as a list of one (as the original service).' });

export const userSpecific = defineOperation({
  query: 'user',
  condition: 'specific',
  methods: ['GET'],
  scope: 'users:read',
  summary: 'Look up one user, by id or by email (any letter case)',
  description:
    'Needs the `users:read` scope (user look-ups return personal data). `sort` `"id"` (the ' +
    'default) uses `parameters.id`; `"email"` uses `parameters.email`, compared ' +
    'case-insensitively. Never returns a password hash.',
  parameters: userSpecificParameters,
  defaultSort: 'id',
  response: userSpecificResponse,
  responseExample: { total: 1, users: [USER_EXAMPLE] },
  examples: [
    { name: 'by-id', summary: 'By id', parameters: { id: 42 } },
    {
      name: 'by-email',
      summary: 'By email',
      sort: 'email',
      parameters: { email: 'ann@example.com' },
    },
  ],
  uses: [users],
  nothingFound: true,
  async handle(selection, { data }) {
    const id =
      selection.sort === 'id'
        ? selection.parameters.id
        : await data(users).findUserIdByEmail(selection.parameters.email);
    const user = id === undefined ? undefined : await data(users).findUserById(id);
    return user && { total: 1 as const, users: [toUserView(user)] };
  },
});
