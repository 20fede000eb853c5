import assert from 'node:assert/strict';
import { test } from 'node:test';
import { dataOf, useCatalogueServer } from '../../../test/helpers/catalogue-server.ts';
import { describeEachDatabaseKind } from '../../../test/helpers/each-database.ts';

const specific = (id: unknown) => ({ query: 'sla', condition: 'specific', parameters: { id } });

describeEachDatabaseKind('sla/specific', (database) => {
  const suite = useCatalogueServer(database);

  test("one plan, with the original's keys; an inactive plan only under visibility all", async () => {
    const plan = dataOf<{ total: number; sla: Record<string, string>[] }>(
      await suite.request(specific(1), 'GET', suite.readKey),
    );
    assert.equal(plan.total, 1);
    assert.equal(plan.sla[0]?.sla_id, '1');
    assert.equal(plan.sla[0]?.name, 'Default SLA');
    assert.equal(plan.sla[0]?.grace_period, '18');
    assert.equal(plan.sla[0]?.notes, '');
    const inactive = dataOf<string>(
      await suite.request(
        {
          query: 'sla',
          condition: 'add',
          parameters: { name: 'Paused', grace_period: 2, flags: 0 },
        },
        'POST',
      ),
    );
    const hidden = await suite.request(specific(inactive), 'GET', suite.readKey);
    assert.equal(hidden.status, 204, hidden.text);
    assert.equal((await suite.request(specific(999), 'GET', suite.readKey)).status, 204);
  });

  test('an id that is no integer (an injection) is a 400', async () => {
    const before = await suite.countRows();
    const reply = await suite.request(specific('1 OR 1=1'), 'GET', suite.readKey);
    assert.equal(reply.status, 400, reply.text);
    assert.deepEqual(await suite.countRows(), before);
    assert.match(String(reply.body?.errors?.[0]?.field), /^parameters\.id$/);
  });
});
