import assert from 'node:assert/strict';
import { test } from 'node:test';
import { dataOf, useCatalogueServer } from '../../../test/helpers/catalogue-server.ts';
import { describeEachDatabaseKind } from '../../../test/helpers/each-database.ts';

const add = (parameters: Record<string, unknown>) => ({
  query: 'sla',
  condition: 'add',
  parameters,
});

describeEachDatabaseKind('sla/add', (database) => {
  const suite = useCatalogueServer(database);

  test('needs the admin scope, which no default key (nor any osTicket key) has', async () => {
    const reply = await suite.request(
      add({ name: 'Nope', grace_period: 1 }),
      'POST',
      suite.defaultsKey,
    );
    assert.equal(reply.status, 403, reply.text);
    assert.equal(reply.body?.code, 'insufficient_scope');
  });

  test('stores the name HTML-escaped as osTicket does; sla/specific answers it so', async () => {
    const id = dataOf<string>(
      await suite.request(add({ name: 'Bronze & <b>12h</b>', grace_period: 12, flags: 1 }), 'POST'),
    );
    assert.match(id, /^[0-9]+$/);
    const plan = dataOf<{ sla: Record<string, string>[] }>(
      await suite.request(
        { query: 'sla', condition: 'specific', parameters: { id } },
        'GET',
        suite.readKey,
      ),
    );
    assert.equal(plan.sla[0]?.name, 'Bronze &amp; &lt;b&gt;12h&lt;/b&gt;');
    assert.equal(plan.sla[0]?.grace_period, '12');
    const again = await suite.request(
      add({ name: 'Bronze & <b>12h</b>', grace_period: 12 }),
      'POST',
    );
    assert.equal(again.status, 400, again.text);
    assert.match(again.text, /parameters\.name/);
  });

  test('a grace period outside 1–8760 hours, or an injection in it, is a 400 that writes nothing', async () => {
    const before = await suite.countRows();
    for (const grace_period of [8761, 0, '1); DELETE FROM sla; --']) {
      const reply = await suite.request(add({ name: 'Too long', grace_period }), 'POST');
      assert.equal(reply.status, 400, reply.text);
    }
    assert.deepEqual(await suite.countRows(), before);
  });

  if (database.kind === 'osticket') {
    test("writes the row osTicket's admin panel writes: flags, grace period, escaped name, created = updated", async () => {
      const osticket = database.osticket;
      assert.ok(osticket);
      const id = Number(
        dataOf(
          await suite.request(
            add({ name: 'Silver & <i>4h</i>', grace_period: 4, flags: 1 }),
            'POST',
          ),
        ),
      );
      const [plan] = await osticket.query<Record<string, unknown>>(
        'SELECT flags, grace_period, name, notes, created = updated AS same FROM ost_sla WHERE id = ?',
        [id],
      );
      assert.deepEqual(plan, {
        flags: 1,
        grace_period: 4,
        name: 'Silver &amp; &lt;i&gt;4h&lt;/i&gt;',
        notes: null,
        same: 1,
      });
    });
  }
});
