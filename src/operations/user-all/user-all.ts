import { z } from 'zod';
import { users } from '../../data/users/users.ts';
import { integerField } from '../fields.ts';
import { defineOperation } from '../operation.ts';
import { toUserView, USER_EXAMPLE, userViewSchema } from '../views/user-view.ts';
import { dateBound } from './date-bound.ts';
import { decodeUserCursor, encodeUserCursor } from './user-cursor.ts';

/** Users per page when the caller does not say. */
const DEFAULT_LIMIT = 100;

/** Its parameters, by the `sort` that selects them. */
export const userAllParameters = {
  creationDate: z.strictObject({
    start_date: dateBound('start'),
    end_date: dateBound('end'),
    limit: integerField(1, 1000)
      .optional()
      .meta({ description: `Users per page, 1 to 1000; default ${DEFAULT_LIMIT}.` }),
    after: z
      .string()
      .transform((cursor, context) => {
        const position = decodeUserCursor(cursor);
        if (!position) {
          context.addIssue({
            code: 'custom',
            message: 'must be the "next" value of an earlier page',
          });
          return z.NEVER;
        }
        return position;
      })
      .optional()
      .meta({ description: 'The `next` value of the previous page.' }),
  }),
};

export const userAllResponse = z
  .strictObject({
    total: z.int().min(0).meta({ description: 'How many users this page holds.' }),
    users: z.array(userViewSchema),
    next: z
      .string()
      .optional()
      .meta({ description: 'Present when more users follow: pass it as `parameters.after`.' }),
  })
  .meta({ description: 'One page of users, in `created` then `id` order.' });

export const userAll = defineOperation({
  query: 'user',
  condition: 'all',
  methods: ['GET'],
  scope: 'users:read',
  summary: 'List the users created in a date range, page by page',
  description:
    'Needs the `users:read` scope. `sort` `"creationDate"` (the only one, and the default): ' +
    'users whose creation time lies between `start_date` and `end_date` (both inclusive), in ' +
    '`created` then `id` order, at most `limit` (1–1000, default 100) per page. `total` counts ' +
    'this page. When more follow, `next` is present: send it back as `parameters.after` (with ' +
    'the same range) for the next page. Every user appears exactly once across the pages, ' +
    'even when many were created in the same second. An empty range → 200 with an empty list.',
  parameters: userAllParameters,
  defaultSort: 'creationDate',
  response: userAllResponse,
  responseExample: { total: 1, users: [USER_EXAMPLE], next: 'MjAyNi0xMS0yMiAwOToxNTowMnw0Mg' },
  examples: [
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
  async handle({ parameters }, { data }) {
    const limit = parameters.limit ?? DEFAULT_LIMIT;
    // One more than asked: whether it exists says whether a next page does.
    const found = await data(users).listUsersCreatedBetween({
      from: parameters.start_date,
      to: parameters.end_date,
      after: parameters.after,
      limit: limit + 1,
    });
    const page = found.slice(0, limit);
    const last = page.at(-1);
    return {
      total: page.length,
      users: page.map(toUserView),
      ...(found.length > limit && last
        ? { next: encodeUserCursor({ created: last.created, id: last.id }) }
        : {}),
    };
  },
});
