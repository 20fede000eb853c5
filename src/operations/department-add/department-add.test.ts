import assert from 'node:assert/strict';
import { test } from 'node:test';
import { dataOf, useCatalogueServer } from '../../../test/helpers/catalogue-server.ts';
import { describeEachDatabaseKind } from '../../../test/helpers/each-database.ts';
import { DEFAULT_SCOPES } from '../../domain.ts';

const add = (parameters: Record<string, unknown>) => ({
  query: 'department',
  condition: 'add',
  parameters,
});

describeEachDatabaseKind('department/add', (database) => {
  const suite = useCatalogueServer(database);

  test('needs the admin scope, which no default key (nor any osTicket key) has', async () => {
    assert.ok(!DEFAULT_SCOPES.includes('admin'));
    const reply = await suite.request(add({ name: 'Nope' }), 'POST', suite.defaultsKey);
    assert.equal(reply.status, 403, reply.text);
    assert.equal(reply.body?.code, 'insufficient_scope');
  });

  test('answers the new id; a name already taken → 400 naming parameters.name', async () => {
    const added = dataOf<string>(
      await suite.request(add({ name: 'Billing', signature: '<b>Bills</b>' }), 'POST'),
    );
    assert.match(added, /^[0-9]+$/);
    const duplicate = await suite.request(add({ name: 'Billing' }), 'POST');
    assert.equal(duplicate.status, 400, duplicate.text);
    assert.match(duplicate.text, /parameters\.name/);
  });

  test('a name with < or > is refused: it never reaches a page as markup', async () => {
    for (const name of ['<img src=x onerror=alert(1)>', '<i>Sales</i>']) {
      const refused = await suite.request(add({ name }), 'POST');
      assert.equal(refused.status, 400, refused.text);
    }
  });

  test('an injection in flags is a 400; stacked VALUES in a text field are one literal row', async () => {
    const before = await suite.countRows();
    const flags = "4), ('y', (SELECT apikey FROM ost_api_key LIMIT 1), 4";
    const reply = await suite.request(add({ name: 'x', flags }), 'POST');
    assert.equal(reply.status, 400, reply.text);
    assert.deepEqual(await suite.countRows(), before);
    const stacked = "Evil', 'sig', 4), ('Copy', (SELECT apikey FROM ost_api_key LIMIT 1), 4) -- ";
    const id = dataOf<string>(
      await suite.request(add({ name: stacked, signature: stacked }), 'POST'),
    );
    assert.deepEqual(
      await suite.countRows(),
      before.map((n, i) => (i === 0 ? n + 1 : n)),
    );
    const shown = dataOf<{ departments: { name: string }[] }>(
      await suite.request(
        { query: 'department', condition: 'specific', parameters: { id } },
        'GET',
        suite.readKey,
      ),
    );
    assert.equal(shown.departments[0]?.name, stacked.trim());
  });

  if (database.kind === 'osticket') {
    test("writes the row osTicket's admin panel writes, audited under the admin key", async () => {
      const osticket = database.osticket;
      assert.ok(osticket);
      const id = dataOf<string>(
        await suite.request(add({ name: 'Sales', signature: 'Bills & <b>fees</b>' }), 'POST'),
      );
      const [row] = await osticket.query<Record<string, unknown>>(
        'SELECT pid, sla_id, flags, name, signature, ispublic, group_membership, ticket_auto_response, message_auto_response, path FROM ost_department WHERE id = ?',
        [Number(id)],
      );
      assert.deepEqual(row, {
        pid: null,
        sla_id: 0,
        flags: 4,
        name: 'Sales',
        signature: 'Bills &amp; &lt;b&gt;fees&lt;/b&gt;',
        ispublic: 1,
        group_membership: 1,
        ticket_auto_response: 1,
        message_auto_response: 1,
        path: `/${id}/`,
      });
      const audit = await osticket.query<Record<string, unknown>>(
        'SELECT api_key_id, operation FROM deskgate_audit_log WHERE target_id = ?',
        [id],
      );
      assert.deepEqual(audit, [{ api_key_id: suite.adminKeyId, operation: 'department/add' }]);
    });
  }
});
