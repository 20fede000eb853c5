import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { describeEachDatabaseKind } from '../../../test/helpers/each-database.ts';
import {
  call,
  type ListPage,
  listPageOf,
  type Reply,
  USER_VIEW_KEYS,
  userBody,
} from '../../../test/helpers/http.ts';
import { useKindServer } from '../../../test/helpers/kind-server.ts';
import {
  createUsersOfKindAt,
  insertOsticketUserAt,
  userKeysOfKind,
} from '../../../test/helpers/users-of-kind.ts';
import { decodeCreatedCursor, encodeCreatedCursor } from '../created-cursor.ts';

/** A bcrypt hash, stored as sent: creating hundreds of users costs no hashing. */
const HASH = '$2y$04$abcdefghijklmnopqrstuu7tWf1Lh1Iu7cL0n2K3p8o5B6v8sQm3Cq';
const SAME_SECOND = '2026-01-15 10:00:00';
let emails = 0;

type Page = ListPage<'users'>;
const pageOf = (reply: Reply): Page => listPageOf(reply, 'users');

describe('user/all cursors', () => {
  test('encode (created, id) opaquely and decode only their own shape', () => {
    const cursor = encodeCreatedCursor({ created: SAME_SECOND, id: 42 });
    assert.match(cursor, /^[A-Za-z0-9_-]+$/);
    assert.deepEqual(decodeCreatedCursor(cursor), { created: SAME_SECOND, id: 42 });
    for (const bad of ['', 'nope', '!!!', Buffer.from('2026-01-15|42').toString('base64url')]) {
      assert.equal(decodeCreatedCursor(bad), undefined, bad);
    }
    const extra = Buffer.from(`${SAME_SECOND}|42|1`).toString('base64url');
    assert.equal(decodeCreatedCursor(extra), undefined);
  });
});

describeEachDatabaseKind('user/all', (database) => {
  const server = useKindServer(database);
  let key: string;
  /** A key that may read and write but not read users: osTicket's key without "Can Create Tickets". */
  let readWrite: string;
  /** Ids by creation time, as the database holds them. */
  const inDay: number[] = [];
  const dayBefore: number[] = [];
  const dayAfter: number[] = [];
  const lastSecond: number[] = [];

  async function createUsers(count: number, created: string, into: number[]): Promise<void> {
    const users = Array.from({ length: count }, (_, i) => ({
      name: `User ${created} ${i}`,
      email: `u.${++emails}@example.com`,
      passwordHash: HASH,
      timezone: 'UTC',
      phone: String(1000 + i),
      orgId: 0,
      defaultEmailId: 0,
      status: 0,
      accountConfirmed: true,
    }));
    const ids = await createUsersOfKindAt(database, server, users, created);
    into.push(...ids);
  }

  before(async () => {
    ({ usersKey: key, noUsersKey: readWrite } = await userKeysOfKind(database, server));
    // 230 users in one second, around others just outside the day and at its last second.
    await createUsers(5, '2026-01-14 23:59:59', dayBefore);
    await createUsers(230, SAME_SECOND, inDay);
    await createUsers(4, '2026-01-15 23:59:59', lastSecond);
    await createUsers(5, '2026-01-16 00:00:00', dayAfter);
  });

  const list = (parameters: unknown, extra: Record<string, unknown> = {}, apikey = key) =>
    call(server.url, {
      headers: { apikey },
      body: { query: 'user', condition: 'all', sort: 'creationDate', parameters, ...extra },
    });

  async function readAll(range: Record<string, unknown>, limit: number): Promise<Page[]> {
    const pages: Page[] = [];
    let after: string | undefined;
    do {
      const page = pageOf(await list({ ...range, limit, ...(after ? { after } : {}) }));
      pages.push(page);
      after = page.next;
    } while (after !== undefined && pages.length < 1000);
    return pages;
  }

  test('pages of many users created in one second: each exactly once, in (created, id) order', async () => {
    const pages = await readAll({ start_date: '2026-01-15', end_date: '2026-01-15' }, 7);
    const ids = pages.flatMap((page) => page.users.map((user) => Number(user.user_id)));
    const expected = [...inDay, ...lastSecond].sort((a, b) => a - b);
    assert.deepEqual(ids, expected);
    assert.equal(new Set(ids).size, ids.length);
    assert.equal(pages.length, Math.ceil(expected.length / 7));
    for (const page of pages.slice(0, -1)) {
      assert.equal(page.total, 7);
      assert.equal(typeof page.next, 'string');
    }
    assert.equal(pages.at(-1)?.next, undefined);
    assert.ok(!('next' in (pages.at(-1) ?? {})), 'no next on the last page');
    const user = pages[0]?.users[0] ?? {};
    assert.equal(user.created, SAME_SECOND);
    assert.deepEqual(Object.keys(user).sort(), USER_VIEW_KEYS);
    for (const value of Object.values(user)) assert.equal(typeof value, 'string');
  });

  test('a page that ends exactly at the last user has no next', async () => {
    const total = inDay.length + lastSecond.length;
    const pages = await readAll({ start_date: '2026-01-15', end_date: '2026-01-15' }, total);
    assert.equal(pages.length, 1);
    assert.equal(pages[0]?.total, total);
    assert.equal(pages[0]?.next, undefined);
  });

  test('without limit, every match; with it, 1000 is the most', async () => {
    const all = pageOf(await list({ start_date: '2026-01-01', end_date: '2026-01-31' }));
    assert.equal(all.total, dayBefore.length + inDay.length + lastSecond.length + dayAfter.length);
    assert.equal(all.next, undefined);
    const most = pageOf(
      await list({ start_date: '2026-01-01', end_date: '2026-01-31', limit: '1000' }),
    );
    assert.deepEqual(most, all);
  });

  test('both bounds are inclusive, as dates or as timestamps', async () => {
    const ids = async (start: string, end: string) =>
      pageOf(await list({ start_date: start, end_date: end, limit: 1000 })).users.map((u) =>
        Number(u.user_id),
      );
    assert.deepEqual(await ids('2026-01-14', '2026-01-14'), dayBefore);
    assert.deepEqual(await ids('2026-01-16', '2026-01-16'), dayAfter);
    assert.deepEqual(await ids('2026-01-15 23:59:59', '2026-01-16 00:00:00'), [
      ...lastSecond,
      ...dayAfter,
    ]);
    assert.deepEqual(await ids(SAME_SECOND, SAME_SECOND), inDay);
    assert.deepEqual(await ids('2026-01-15 10:00:01', '2026-01-15 23:59:58'), []);
  });

  test('an empty range → 200 with an empty list and no next', async () => {
    const page = pageOf(await list({ start_date: '2020-01-01', end_date: '2020-12-31' }));
    assert.deepEqual(page, { total: 0, users: [] });
  });

  test('a user created while paging is listed once, in its place', async () => {
    const range = { start_date: '2026-01-15', end_date: '2026-01-16', limit: 50 };
    const first = pageOf(await list(range));
    const late: number[] = [];
    await createUsers(1, '2026-01-15 23:59:59', late);
    let after = first.next;
    const seen = first.users.map((u) => Number(u.user_id));
    while (after) {
      const page = pageOf(await list({ ...range, after }));
      seen.push(...page.users.map((u) => Number(u.user_id)));
      after = page.next;
    }
    assert.equal(new Set(seen).size, seen.length);
    assert.ok(seen.includes(late[0] as number));
    lastSecond.push(...late);
  });

  test('the sort field is optional; anything but "creationDate" is refused', async () => {
    const range = { start_date: '2026-01-14', end_date: '2026-01-14' };
    const noSort = await call(server.url, {
      headers: { apikey: key },
      body: { query: 'user', condition: 'all', parameters: range },
    });
    assert.deepEqual(
      pageOf(noSort).users.map((u) => Number(u.user_id)),
      dayBefore,
    );
    for (const sort of ['id', 'created', 'CreationDate', 1]) {
      const reply = await list(range, { sort });
      assert.equal(reply.status, 400);
      assert.equal(reply.body?.code, 'invalid_request');
    }
  });

  test('bad parameters → 400 invalid_parameters naming every one', async () => {
    const cases: [unknown, string[]][] = [
      [{}, ['parameters.end_date', 'parameters.start_date']],
      [
        { start_date: '2026-02-30', end_date: '2026-13-01' },
        ['parameters.end_date', 'parameters.start_date'],
      ],
      [
        { start_date: '15/01/2026', end_date: '2026-01-15T00:00:00' },
        ['parameters.end_date', 'parameters.start_date'],
      ],
      [{ start_date: '2026-01-15 24:00:00', end_date: '2026-01-15' }, ['parameters.start_date']],
      [{ start_date: '2026-01-15', end_date: '2026-01-15', limit: 0 }, ['parameters.limit']],
      [{ start_date: '2026-01-15', end_date: '2026-01-15', limit: 1001 }, ['parameters.limit']],
      [
        { start_date: '2026-01-15', end_date: '2026-01-15', after: 'not-a-cursor' },
        ['parameters.after'],
      ],
      [{ start_date: '2026-01-15', end_date: '2026-01-15', after: 7 }, ['parameters.after']],
      [{ start_date: '2026-01-15', end_date: '2026-01-15', page: 2 }, ['parameters.page']],
    ];
    for (const [parameters, fields] of cases) {
      const reply = await list(parameters);
      assert.equal(reply.status, 400, JSON.stringify(parameters));
      assert.equal(reply.body?.code, 'invalid_parameters');
      assert.deepEqual(
        reply.body?.errors?.map((e) => e.field).sort(),
        fields,
        `${JSON.stringify(parameters)}: ${reply.text}`,
      );
    }
  });

  test('needs the users:read scope', async () => {
    const reply = await list({ start_date: '2026-01-15', end_date: '2026-01-15' }, {}, readWrite);
    assert.equal(reply.status, 403);
    assert.equal(reply.body?.code, 'insufficient_scope');
  });

  test('users made through user/add are listed with what was sent', async () => {
    const reply = await call(server.url, {
      method: 'POST',
      headers: { apikey: key },
      body: userBody({ email: 'listed@example.com', phone: 5551234, timezone: 'Asia/Tokyo' }),
    });
    assert.equal(reply.status, 200, reply.text);
    const page = pageOf(await list({ start_date: '2026-02-01', end_date: '2999-12-31' }));
    assert.deepEqual(
      page.users.map((u) => [u.user_id, u.email, u.phone, u.timezone]),
      [[String(reply.body?.data), 'listed@example.com', '5551234', 'Asia/Tokyo']],
    );
  });

  // osTicket's user_account.user_id is not unique: a rows-only case of its layout.
  if (database.kind === 'osticket') {
    test('a user with two account rows is listed once, on every page size; no email, no phone → ""', async () => {
      const db = database.osticket as NonNullable<typeof database.osticket>;
      const second = '2025-05-05 12:00:00';
      const ids: number[] = [];
      for (const name of ['Before', 'Twice', 'After'])
        ids.push(await insertOsticketUserAt(db, { name }, second));
      await db.query(
        `INSERT INTO ${db.prefix}user_account (user_id, status, timezone) VALUES (?, 0, 'Asia/Tokyo'), (?, 0, 'UTC')`,
        [ids[1], ids[1]],
      );
      const range = { start_date: second, end_date: second };
      for (const limit of [1, 2, 1000]) {
        const pages = await readAll(range, limit);
        const seen = pages.flatMap((page) => page.users.map((u) => Number(u.user_id)));
        assert.deepEqual(seen, ids, `limit ${limit}`);
      }
      const twice = pageOf(await list(range)).users.find((u) => u.user_id === String(ids[1]));
      assert.equal(twice?.timezone, 'Asia/Tokyo');
      assert.equal(twice?.email, '');
      assert.equal(twice?.phone, '');
    });
  }
});
