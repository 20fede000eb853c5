import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { insertTopics } from '../../test/helpers/data-setup.ts';
import { describeEachDatabase } from '../../test/helpers/each-database.ts';
import { type Reply, userBody } from '../../test/helpers/http.ts';
import { useTestServer } from '../../test/helpers/test-server.ts';
import { topics } from '../data/topics/topics.ts';

/** A bcrypt hash, stored as sent: creating users costs no hashing. */
const HASH = '$2y$04$abcdefghijklmnopqrstuu7tWf1Lh1Iu7cL0n2K3p8o5B6v8sQm3Cq';
const MAX_LIST = 6;
const EVERYTHING = { start_date: '2000-01-01', end_date: '2999-12-31' };

interface Listed {
  total: number;
  next?: string;
  [list: string]: unknown;
}

function listedOf(reply: Reply, list: 'users' | 'topics'): { ids: string[]; data: Listed } {
  assert.equal(reply.status, 200, reply.text);
  const data = reply.body?.data as Listed;
  const ids = (data[list] as Record<string, string>[]).map((e) => e.user_id ?? e.id ?? '');
  assert.equal(data.total, ids.length);
  return { ids, data };
}

describeEachDatabase('list operations without limit', (database) => {
  const server = useTestServer(() => ({
    database,
    env: { DESKGATE_MAX_LIST: String(MAX_LIST) },
  }));
  const users: string[] = [];

  async function addUser(): Promise<void> {
    const reply = await server.request(
      userBody({ email: `list.${users.length}@example.com`, password: HASH }),
      { method: 'POST' },
    );
    assert.equal(reply.status, 200, reply.text);
    users.push(String(reply.body?.data));
  }

  const listUsers = (parameters: Record<string, unknown>) =>
    server.request({ query: 'user', condition: 'all', parameters });
  const listTopics = (parameters?: Record<string, unknown>) =>
    server.request({ query: 'topics', condition: 'all', parameters });

  before(async () => {
    for (let i = 0; i < MAX_LIST; i++) await addUser();
  });

  test('user/all: every match, however many, up to DESKGATE_MAX_LIST', async () => {
    const { ids, data } = listedOf(await listUsers(EVERYTHING), 'users');
    assert.deepEqual(ids, users);
    assert.equal(data.next, undefined);
  });

  test('user/all: one more than DESKGATE_MAX_LIST → 400 too_many_results, none cut off', async () => {
    await addUser();
    const reply = await listUsers(EVERYTHING);
    assert.equal(reply.status, 400, reply.text);
    assert.equal(reply.body?.code, 'too_many_results');
    assert.match(String(reply.body?.data), new RegExp(`More than ${MAX_LIST} users match`));
    assert.match(String(reply.body?.data), /parameters\.limit/);
    // With limit, the same range pages: every user once.
    const seen: string[] = [];
    let after: string | undefined;
    do {
      const page = listedOf(
        await listUsers({ ...EVERYTHING, limit: 3, ...(after ? { after } : {}) }),
        'users',
      );
      seen.push(...page.ids);
      after = page.data.next;
    } while (after !== undefined);
    assert.deepEqual(seen, users);
  });

  test('topics/all: the same rule, and pages with limit and after', async () => {
    const all = listedOf(await listTopics(), 'topics').ids;
    const more = MAX_LIST + 1 - all.length;
    await insertTopics(
      server,

      Array.from({ length: Math.max(more, 0) }, (_, i) => ({
        parentId: 0,
        isPublic: true,
        sort: 100 + i,
        name: `Listed ${i}`,
        notes: '',
      })),
    );
    const reply = await listTopics();
    assert.equal(reply.status, 400, reply.text);
    assert.equal(reply.body?.code, 'too_many_results');
    assert.match(String(reply.body?.data), new RegExp(`More than ${MAX_LIST} topics match`));
    const expected = (await server.store.data(topics).listTopicsInOrder()).map((t) => String(t.id));
    const seen: string[] = [];
    let after: string | undefined;
    let pages = 0;
    do {
      const page = listedOf(await listTopics({ limit: 2, ...(after ? { after } : {}) }), 'topics');
      seen.push(...page.ids);
      after = page.data.next;
      pages++;
    } while (after !== undefined);
    assert.deepEqual(seen, expected);
    assert.equal(pages, Math.ceil(expected.length / 2));
    // A filter that leaves few enough answers them all.
    assert.ok(listedOf(await listTopics({ parent: 999 }), 'topics').ids.length === 0);
  });

  test('a cursor of another list is refused', async () => {
    const page = listedOf(await listUsers({ ...EVERYTHING, limit: 1 }), 'users');
    const reply = await listTopics({ limit: 1, after: page.data.next });
    assert.equal(reply.status, 400, reply.text);
    assert.deepEqual(
      reply.body?.errors?.map((e) => e.field),
      ['parameters.after'],
    );
  });
});
