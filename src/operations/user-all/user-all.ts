import * as z from 'zod';
import { users } from '../../data/users/users.ts';
import { CREATED_CURSOR } from '../created-cursor.ts';
import { dateRangeParameters, endBound } from '../date-range.ts';
import { listAnswer, listParameters, listRequest, readList } from '../list-page.ts';
import { defineOperation } from '../operation.ts';
import { toUserView, USER_EXAMPLE, userViewSchema } from '../views/user-view.ts';

/** Its parameters, by the `sort` that selects them. */
export const userAllParameters = {
  creationDate: dateRangeParameters(listParameters(CREATED_CURSOR, 'Users')),
};

export const userAllResponse = z
  .strictObject({
    total: z.int().min(0).meta({
      description:
        'How many users `users` holds: every match without `limit`, this page with it (never a count of later pages).',
    }),
    users: z.array(userViewSchema),
    next: z
      .string()
      .optional()
      .meta({ description: 'Present when more users follow: pass it as `parameters.after`.' }),
  })
  .meta({ description: 'The users, or one page of them, in `created` then `id` order.' });

export const userAll = defineOperation({
  query: 'user',
  condition: 'all',
  methods: ['GET'],
  scope: 'users:read',
  summary: 'List the users created in a date range, page by page',
  description:
    'Needs the `users:read` scope. `sort` `"creationDate"` (the only one, and the default): ' +
    'users whose creation time lies between `start_date` and `end_date` (both inclusive), in ' +
    '`created` then `id` order. Without `limit`, every match (up to DESKGATE_MAX_LIST, default ' +
    '10,000; more → 400 `too_many_results`, never a list cut short). With `limit` (1–1000), one ' +
    'page: when more follow, `next` is present; send it back as `parameters.after` (with the ' +
    'same range) for the next page. Every user appears exactly once across the pages, even ' +
    'when many were created in the same second. `total` counts the users of this answer. An ' +
    'empty range → 200 with an empty list.',
  parameters: userAllParameters,
  defaultSort: 'creationDate',
  response: userAllResponse,
  responseExample: { total: 1, users: [USER_EXAMPLE], next: 'MjAyNi0xMS0yMiAwOToxNTowMnw0Mg' },
  examples: [
    {
      name: 'whole-range',
      summary: 'Every user created in November 2026',
      sort: 'creationDate',
      parameters: { start_date: '2026-11-01', end_date: '2026-11-30' },
    },
    {
      name: 'first-page',
      summary: 'The users created in November 2026, 50 per page',
      sort: 'creationDate',
      parameters: { start_date: '2026-11-01', end_date: '2026-11-30', limit: 50 },
    },
    {
      name: 'next-page',
      summary: 'The page after the one whose next was MjAyNi0xMS0yMiAwOToxNTowMnw0Mg',
      sort: 'creationDate',
      parameters: {
        start_date: '2026-11-01',
        end_date: '2026-11-30',
        limit: 50,
        after: 'MjAyNi0xMS0yMiAwOToxNTowMnw0Mg',
      },
    },
  ],
  uses: [users],
  nothingFound: false,
  errors: ['too_many_results'],
  async handle({ parameters }, { data, config }) {
    const { elements, next } = await readList(
      listRequest(parameters, config, 'users', CREATED_CURSOR),
      (count, after) =>
        data(users).listUsersCreatedBetween({
          from: parameters.start_date,
          to: endBound(parameters.end_date, config.endDate),
          after,
          limit: count,
        }),
      (user) => ({ created: user.created, id: user.id }),
    );
    return listAnswer('users', elements.map(toUserView), next);
  },
});
