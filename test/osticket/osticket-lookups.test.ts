import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { call, type Reply, userBody } from '../helpers/http.ts';
import { type TestServer, useTestServer } from '../helpers/test-server.ts';
import {
  createOsticketDatabase,
  OSTICKET_SKIP,
  type OsticketDatabase,
} from './osticket-database.ts';

const skip = OSTICKET_SKIP;

const ENV = { DESKGATE_SCHEMA: 'osticket', DESKGATE_TABLE_PREFIX: 'ost_' };

interface Data {
  total: number;
  topics?: Record<string, string>[];
  topic?: Record<string, string>;
  users?: Record<string, string>[];
  next?: string;
}

function dataOf(reply: Reply): Data {
  assert.equal(reply.status, 200, reply.text);
  return reply.body?.data as Data;
}

/** A user as osTicket's staff panel creates one (shared/osticket/README.md), phone in the form entry. */
async function createStaffMadeUser(db: OsticketDatabase, email: string): Promise<number> {
  const userId = await db.insert(
    `INSERT INTO ost_user (org_id, default_email_id, status, name, created, updated)
     VALUES (0, 0, 0, 'Staff Made', NOW(), NOW())`,
  );
  const emailId = await db.insert(
    'INSERT INTO ost_user_email (user_id, flags, address) VALUES (?, 0, ?)',
    [userId, email],
  );
  await db.query('UPDATE ost_user SET default_email_id = ? WHERE id = ?', [emailId, userId]);
  await db.query(
    `INSERT INTO ost_user_account (user_id, status, timezone, passwd, registered)
     VALUES (?, 1, 'Europe/Lisbon', '$2a$08$abcdefghijklmnopqrstuuJ3dYB6Rk6yJ8zPZl5bY6m4wR6Hk1i6', NOW())`,
    [userId],
  );
  const entryId = await db.insert(
    `INSERT INTO ost_form_entry (form_id, object_id, object_type, sort, extra, created, updated)
     SELECT id, ?, 'U', 1, NULL, NOW(), NOW() FROM ost_form WHERE type = 'U'`,
    [userId],
  );
  await db.query(
    `INSERT INTO ost_form_entry_values (entry_id, field_id, value, value_id)
     SELECT ?, f.id, CASE f.name WHEN 'phone' THEN '5551234' ELSE NULL END, NULL
     FROM ost_form_field f JOIN ost_form fm ON fm.id = f.form_id
     WHERE fm.type = 'U' AND f.name IN ('phone', 'notes')`,
    [entryId],
  );
  await db.query(
    `INSERT INTO ost_user__cdata (user_id, email, name, phone, notes) VALUES (?, NULL, NULL, '5551234', '')`,
    [userId],
  );
  return userId;
}

describe('look-ups in osTicket mode, on the real osTicket 1.18.1 schema', { skip }, () => {
  let db: OsticketDatabase;
  let key: string;
  let readOnly: string;
  let staffMade: number;

  before(async () => {
    db = await createOsticketDatabase();
    key = db.writeKey.key;
    readOnly = db.readKey.key;
    staffMade = await createStaffMadeUser(db, 'StaffMade@Example.com');
  });
  const server = useTestServer(() => ({ database: db.url, env: ENV, ownKey: false }));
  const inactiveToo = useTestServer(() => ({
    database: db.url,
    env: { ...ENV, DESKGATE_INACTIVE_TOPICS: 'true' },
    ownKey: false,
  }));
  after(async () => {
    await db?.drop();
  });

  const get = (body: Record<string, unknown>, target: TestServer = server, apikey = key) =>
    call(target.url, { headers: { apikey }, body });

  test('topics/all: active topics from help_topic.flags, in sort then id order', async () => {
    const { topics, total } = dataOf(await get({ query: 'topics', condition: 'all' }));
    // 13 is disabled (flags 0) and 14 archived (flags 4): osTicket no longer offers them.
    assert.deepEqual(
      topics?.map((topic) => topic.id),
      ['15', '2', '1', '12', '10', '11'],
    );
    assert.equal(total, 6);
    const cafe = topics?.[0];
    assert.deepEqual(cafe, {
      id: '15',
      parent: '0',
      ispublic: '1',
      sort: '0',
      topic: 'Café Ünïcode ✓',
      notes: 'Notes with <b>html</b> &amp; ampersand',
      created: '2026-11-22 13:14:17',
      updated: '2026-11-22 13:14:17',
    });
    assert.equal(topics?.find((topic) => topic.id === '12')?.ispublic, '0');
    const children = dataOf(
      await get({ query: 'topics', condition: 'all', parameters: { parent: 10 } }),
    );
    assert.deepEqual(
      children.topics?.map((topic) => topic.id),
      ['11'],
    );
  });

  test('DESKGATE_INACTIVE_TOPICS=true lists disabled and archived topics too', async () => {
    const { topics } = dataOf(await get({ query: 'topics', condition: 'all' }, inactiveToo));
    assert.deepEqual(
      topics?.map((topic) => topic.id),
      ['15', '14', '2', '1', '12', '13', '10', '11'],
    );
    assert.equal(topics?.find((topic) => topic.id === '13')?.notes, '');
  });

  test('topics/specific by name: case- and accent-insensitive on utf8mb3, active only', async () => {
    const byName = (name: string, target: TestServer = server) =>
      get({ query: 'topics', condition: 'specific', sort: 'name', parameters: { name } }, target);
    for (const name of ['cafe unicode', 'CAFÉ ÜNÏ', 'ünicode ✓']) {
      assert.equal(dataOf(await byName(name)).topic?.id, '15', name);
    }
    assert.equal(dataOf(await byName('access')).topic?.id, '11');
    assert.equal((await byName('archived')).status, 204);
    assert.equal((await byName('old disabled')).status, 204);
    assert.equal(dataOf(await byName('archived', inactiveToo)).topic?.id, '14');
  });

  test('user/specific: a user osTicket made, by id and by email, phone from its form entry', async () => {
    const byId = dataOf(
      await get({ query: 'user', condition: 'specific', parameters: { id: staffMade } }),
    );
    const user = byId.users?.[0] ?? {};
    assert.deepEqual(
      { ...user, created: '', updated: '' },
      {
        user_id: String(staffMade),
        name: 'Staff Made',
        email: 'StaffMade@Example.com',
        org_id: '0',
        status: '0',
        timezone: 'Europe/Lisbon',
        phone: '5551234',
        created: '',
        updated: '',
      },
    );
    assert.match(user.created ?? '', /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    const byEmail = dataOf(
      await get({
        query: 'user',
        condition: 'specific',
        sort: 'email',
        parameters: { email: 'staffmade@EXAMPLE.com' },
      }),
    );
    assert.equal(byEmail.users?.[0]?.user_id, String(staffMade));
    const missing = await get({ query: 'user', condition: 'specific', parameters: { id: 99999 } });
    assert.equal(missing.status, 204);
    assert.equal(missing.headers['x-error-code'], 'not_found');
  });

  test('user/specific answers phones as stored: a form answer unchanged, else the __cdata row', async () => {
    const phoneOf = async (id: number) =>
      dataOf(await get({ query: 'user', condition: 'specific', parameters: { id } })).users?.[0]
        ?.phone;
    // osTicket's phone field with its extension: the digits, X, the extension.
    const withExtension = await createStaffMadeUser(db, 'extension@example.com');
    await db.query(
      `UPDATE ost_form_entry_values v JOIN ost_form_entry e ON e.id = v.entry_id
       JOIN ost_form_field f ON f.id = v.field_id
       SET v.value = '0612345678X12' WHERE e.object_id = ? AND f.name = 'phone'`,
      [withExtension],
    );
    assert.equal(await phoneOf(withExtension), '0612345678X12');
    // The PHP service wrote only ost_user__cdata, its phone unquoted in SQL (0612345678 → 612345678).
    const phpMade = await db.insert(
      `INSERT INTO ost_user (org_id, default_email_id, status, name, created, updated)
       VALUES (1, 1, 1, 'Php Made', NOW(), NOW())`,
    );
    await db.query('INSERT INTO ost_user__cdata (user_id, phone) VALUES (?, 0612345678)', [
      phpMade,
    ]);
    assert.equal(await phoneOf(phpMade), '612345678');
    // Without ost_user__cdata (osTicket creates it lazily) such a user has no phone.
    await db.query('RENAME TABLE ost_user__cdata TO ost_user__cdata_away');
    try {
      assert.equal(await phoneOf(phpMade), '');
      assert.equal(await phoneOf(withExtension), '0612345678X12');
    } finally {
      await db.query('RENAME TABLE ost_user__cdata_away TO ost_user__cdata');
    }
  });

  test('user/specific finds a user deskgate created', async () => {
    const made = await call(server.url, {
      method: 'POST',
      headers: { apikey: key },
      body: userBody({ email: 'made.here@example.com', phone: '(061) 234-5678', timezone: 'UTC' }),
    });
    assert.equal(made.status, 200, made.text);
    const found = dataOf(
      await get({
        query: 'user',
        condition: 'specific',
        sort: 'email',
        parameters: { email: 'MADE.HERE@example.com' },
      }),
    );
    assert.equal(found.users?.[0]?.user_id, String(made.body?.data));
    assert.equal(found.users?.[0]?.phone, '0612345678');
    assert.equal(found.users?.[0]?.timezone, 'UTC');
  });

  test('user/all: pages over users created in one second, each exactly once', async () => {
    const second = '2031-05-05 12:00:00';
    const ids: number[] = [];
    for (let i = 0; i < 23; i++) {
      ids.push(
        await db.insert(
          `INSERT INTO ost_user (org_id, default_email_id, status, name, created, updated)
           VALUES (0, 0, 0, ?, ?, ?)`,
          [`Batch ${i}`, second, second],
        ),
      );
    }
    // One user of the batch with two account rows: osTicket's user_account.user_id is not unique.
    await db.query(
      "INSERT INTO ost_user_account (user_id, status, timezone) VALUES (?, 0, 'Asia/Tokyo'), (?, 0, 'UTC')",
      [ids[3], ids[3]],
    );
    const seen: string[] = [];
    let after: string | undefined;
    let pages = 0;
    do {
      const page = dataOf(
        await get({
          query: 'user',
          condition: 'all',
          sort: 'creationDate',
          parameters: {
            start_date: '2031-05-05',
            end_date: '2031-05-05 12:00:00',
            limit: 5,
            ...(after ? { after } : {}),
          },
        }),
      );
      pages++;
      seen.push(...(page.users ?? []).map((u) => u.user_id as string));
      after = page.next;
    } while (after && pages < 20);
    assert.deepEqual(seen, ids.map(String));
    assert.equal(pages, 5);
    const tokyo = dataOf(
      await get({
        query: 'user',
        condition: 'all',
        parameters: { start_date: second, end_date: second, limit: 1000 },
      }),
    ).users?.find((u) => u.user_id === String(ids[3]));
    assert.equal(tokyo?.timezone, 'Asia/Tokyo');
    assert.equal(tokyo?.email, '');
    assert.equal(tokyo?.phone, '');
  });

  test('a key without can_create_tickets has read but not users:read', async () => {
    const topics = await get({ query: 'topics', condition: 'all' }, server, readOnly);
    assert.equal(topics.status, 200);
    const users = await get(
      { query: 'user', condition: 'specific', parameters: { id: staffMade } },
      server,
      readOnly,
    );
    assert.equal(users.status, 403);
    assert.equal(users.body?.code, 'insufficient_scope');
  });
});
