import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { type Kysely, sql } from 'kysely';
import { describeEachDatabase } from '../../../test/helpers/each-database.ts';
import { useTestServer } from '../../../test/helpers/test-server.ts';
import type { NewEvent } from '../events/event.ts';
import type { EventTables } from '../events/event-rows.ts';
import { appendEvents } from '../events/events.ts';
import { openDatabase } from '../open-database.ts';
import type { AuditLogTables } from './audit-log.ts';
import { writes } from './writes.ts';

const userCreated = (userId: number): NewEvent => ({
  type: 'user.created',
  occurredAt: '2026-11-28 01:00:00',
  user: { id: userId },
  actor: { type: 'system', id: null, name: 'test' },
});

describeEachDatabase("a write's audit entry and events", (database) => {
  const server = useTestServer({ database });
  let db: Kysely<AuditLogTables & EventTables>;
  after(() => db.destroy());
  let keyId: number;
  before(async () => {
    ({ db } = openDatabase<AuditLogTables & EventTables>(database.url));
    ({ id: keyId } = await server.createKey({ scopes: ['write'] }));
  });

  /** A write appending `batches` of events (each from one entity call), as `target`. */
  async function write(target: string, batches: NewEvent[][]) {
    await server.store.data(writes).recordWrite({
      actor: { apiKeyId: keyId, clientIp: '192.0.2.7', operation: 'test/write' },
      async run(trx) {
        for (const events of batches) await appendEvents(trx, database.kind, events);
      },
      targetId: () => target,
      outcome: () => '',
      answer: () => 0,
    });
    const entries = await db
      .selectFrom('audit_log')
      .select(['api_key_id', 'client_ip', 'operation', 'target_id'])
      .where('target_id', '=', target)
      .execute();
    const events = await db
      .selectFrom('events')
      .select(['id', 'user_id', 'actor_name', 'recorded_ms'])
      .where('user_id', '>=', Number(target) * 10)
      .where('user_id', '<', Number(target) * 10 + 10)
      .orderBy('id')
      .execute();
    return { entries, events };
  }

  const entry = (target: string) => ({
    api_key_id: keyId,
    client_ip: '192.0.2.7',
    operation: 'test/write',
    target_id: target,
  });

  test('one audit entry per write, and its events in the order appended, numbered in order', async () => {
    const started = Date.now();
    const one = await write('1', [[userCreated(10)]]);
    const many = await write('2', [[userCreated(20), userCreated(21)], [userCreated(22)]]);
    const none = await write('3', []);
    assert.deepEqual(one.entries, [entry('1')]);
    assert.deepEqual(many.entries, [entry('2')]);
    assert.deepEqual(none.entries, [entry('3')]);
    assert.deepEqual(
      one.events.map((row) => Number(row.user_id)),
      [10],
    );
    assert.deepEqual(
      many.events.map((row) => Number(row.user_id)),
      [20, 21, 22],
    );
    const ids = [...one.events, ...many.events].map((row) => Number(row.id));
    assert.deepEqual(
      ids,
      [...ids].sort((a, b) => a - b),
    );
    assert.equal(new Set(ids).size, ids.length);
    for (const row of [...one.events, ...many.events]) {
      assert.equal(row.actor_name, 'test');
      const recorded = Number(row.recorded_ms);
      // The database's clock (a second's slack for a server clock a little apart).
      assert.ok(recorded >= started - 1_000 && recorded <= Date.now() + 1_000, String(recorded));
    }
  });

  if (database.kind === 'postgres') {
    test('PostgreSQL: the audit entry goes in the statement of the first events (one round trip)', async () => {
      await write('4', [[userCreated(40)]]);
      await write('5', [[userCreated(50), userCreated(51)], [userCreated(52)]]);
      // cmin: the number, within its transaction, of the statement that inserted the row.
      const statementOf = async (target: string) => {
        const { rows } = await sql<{ audit: string; events: string[] }>`
          select (select cmin from audit_log where target_id = ${target})::text as audit,
            array(select cmin::text from events
              where user_id >= ${Number(target) * 10} and user_id < ${Number(target) * 10 + 10}
              order by id) as events`.execute(db);
        return rows[0];
      };
      const one = await statementOf('4');
      assert.deepEqual(one?.events, [one?.audit]);
      const many = await statementOf('5');
      assert.equal(many?.events.length, 3);
      assert.equal(many?.events[0], many?.audit);
      assert.equal(many?.events[1], many?.audit);
      assert.notEqual(many?.events[2], many?.audit, 'the second batch: a statement of its own');
    });
  }
});
