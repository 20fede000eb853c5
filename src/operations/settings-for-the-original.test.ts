import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { createUsersCreatedAt } from '../../test/helpers/data-setup.ts';
import { describeEachDatabase } from '../../test/helpers/each-database.ts';
import type { Reply } from '../../test/helpers/http.ts';
import { useTestServer } from '../../test/helpers/test-server.ts';
import { topics } from '../data/topics/topics.ts';

const HASH = '$2y$04$abcdefghijklmnopqrstuu7tWf1Lh1Iu7cL0n2K3p8o5B6v8sQm3Cq';

function idsOf(reply: Reply, list: 'users' | 'topics'): number[] {
  assert.equal(reply.status, 200, reply.text);
  const data = reply.body?.data as Record<string, Record<string, string>[]>;
  return (data[list] ?? []).map((e) => Number(e.user_id ?? e.id));
}

// The settings that give the PHP service's behaviour back to an admin who needs time to switch.
describeEachDatabase('settings for the original behaviour', (database) => {
  const standard = useTestServer(() => ({ database }));
  const original = useTestServer(() => ({
    database,
    env: { DESKGATE_TOPICS_ALL: 'top-level', DESKGATE_END_DATE: 'midnight' },
  }));
  /** Users by creation time: the first second of 2026-03-02, later that day, the day after's first. */
  const users: Record<'midnight' | 'noon' | 'nextMidnight', number> = {
    midnight: 0,
    noon: 0,
    nextMidnight: 0,
  };

  before(async () => {
    const times = {
      midnight: '2026-03-02 00:00:00',
      noon: '2026-03-02 12:00:00',
      nextMidnight: '2026-03-03 00:00:00',
    };
    for (const [name, created] of Object.entries(times) as [keyof typeof times, string][]) {
      const [id] = await createUsersCreatedAt(
        standard,
        database.url,
        [
          {
            name,
            email: `${name}@example.com`,
            passwordHash: HASH,
            timezone: 'UTC',
            phone: '',
            orgId: 0,
            defaultEmailId: 0,
            status: 0,
            accountConfirmed: true,
          },
        ],
        created,
      );
      users[name] = id as number;
    }
  });

  const range = (start: string, end: string) => ({
    query: 'user',
    condition: 'all',
    parameters: { start_date: start, end_date: end },
  });

  test('DESKGATE_END_DATE: a bare end date is its whole day, or with midnight its first second', async () => {
    const { midnight, noon, nextMidnight } = users;
    assert.deepEqual(idsOf(await standard.request(range('2026-03-01', '2026-03-02')), 'users'), [
      midnight,
      noon,
    ]);
    assert.deepEqual(idsOf(await original.request(range('2026-03-01', '2026-03-02')), 'users'), [
      midnight,
    ]);
    // As the PHP service: [D, D+1] windows share D+1's first second, and nothing else.
    assert.deepEqual(idsOf(await original.request(range('2026-03-02', '2026-03-03')), 'users'), [
      midnight,
      noon,
      nextMidnight,
    ]);
    // A timestamp is the same bound under both.
    for (const server of [standard, original]) {
      const reply = await server.request(range('2026-03-02', '2026-03-02 11:59:59'));
      assert.deepEqual(idsOf(reply, 'users'), [midnight]);
    }
  });

  test('DESKGATE_TOPICS_ALL=top-level: topics/all without parent answers top-level topics only', async () => {
    const all = await standard.store.data(topics).listTopicsInOrder();
    assert.ok(
      all.some((t) => t.parentId !== 0),
      'the defaults include a child topic',
    );
    const topicsAll = (parameters?: object) => ({ query: 'topics', condition: 'all', parameters });
    assert.deepEqual(
      idsOf(await standard.request(topicsAll()), 'topics'),
      all.map((t) => t.id),
    );
    assert.deepEqual(
      idsOf(await original.request(topicsAll()), 'topics'),
      all.filter((t) => t.parentId === 0).map((t) => t.id),
    );
    // An explicit parent is still honoured.
    const parent = all.find((t) => t.parentId !== 0)?.parentId as number;
    assert.deepEqual(
      idsOf(await original.request(topicsAll({ parent })), 'topics'),
      all.filter((t) => t.parentId === parent).map((t) => t.id),
    );
  });
});
