import assert from 'node:assert/strict';
import { test } from 'node:test';
import { dataOf, useCatalogueServer } from '../../../test/helpers/catalogue-server.ts';
import { describeEachDatabaseKind } from '../../../test/helpers/each-database.ts';

const all = (parameters: Record<string, unknown>) => ({
  query: 'sla',
  condition: 'all',
  parameters,
});
const RANGE = { start_date: '2000-01-01', end_date: '2100-12-31' };

describeEachDatabaseKind('sla/all', (database) => {
  const suite = useCatalogueServer(database);

  test('the active plans created in the range, in (created, id) order, paged', async () => {
    for (const [name, flags] of [
      ['Gold', 1],
      ['Paused', 0],
    ] as const) {
      await suite.request(
        { query: 'sla', condition: 'add', parameters: { name, grace_period: 4, flags } },
        'POST',
      );
    }
    const listed = dataOf<{ total: number; sla: Record<string, string>[] }>(
      await suite.request(all(RANGE), 'GET', suite.readKey),
    );
    assert.deepEqual(
      listed.sla.map((plan) => plan.name),
      ['Default SLA', 'Gold'],
    );
    assert.equal(listed.total, 2);
    const first = dataOf<{ sla: { name: string }[]; next?: string }>(
      await suite.request(all({ ...RANGE, limit: 1 }), 'GET', suite.readKey),
    );
    assert.deepEqual(
      first.sla.map((plan) => plan.name),
      ['Default SLA'],
    );
    assert.ok(first.next);
    const second = dataOf<{ sla: { name: string }[]; next?: string }>(
      await suite.request(all({ ...RANGE, limit: 1, after: first.next }), 'GET', suite.readKey),
    );
    assert.deepEqual(
      second.sla.map((plan) => plan.name),
      ['Gold'],
    );
    const none = dataOf<{ total: number }>(
      await suite.request(
        all({ start_date: '1990-01-01', end_date: '1990-12-31' }),
        'GET',
        suite.readKey,
      ),
    );
    assert.equal(none.total, 0);
  });

  test('an injection in a date is a 400', async () => {
    const before = await suite.countRows();
    const reply = await suite.request(
      all({ start_date: '2020-01-01', end_date: "2030-01-01' OR 1=1 -- " }),
      'GET',
      suite.readKey,
    );
    assert.equal(reply.status, 400, reply.text);
    assert.deepEqual(await suite.countRows(), before);
  });
});
