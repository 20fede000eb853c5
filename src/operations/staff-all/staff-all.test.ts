import assert from 'node:assert/strict';
import { test } from 'node:test';
import { dataOf } from '../../../test/helpers/catalogue-server.ts';
import {
  describeEachDatabaseKind,
  describeWithDatabase,
  SQLITE,
} from '../../../test/helpers/each-database.ts';
import { useTestServer } from '../../../test/helpers/test-server.ts';
import { addAgent } from '../../../test/helpers/tickets.ts';
import { useWorkCatalogueServer } from '../../../test/helpers/work-catalogue-server.ts';

interface Staff {
  total: number;
  staff: Record<string, string>[];
}

describeEachDatabaseKind('staff/all', (database) => {
  const suite = useWorkCatalogueServer(database);
  const ids = (data: Staff) => data.staff.map((member) => Number(member.staff_id));

  test('every agent, active or not, in id order: id, name, department, isactive as strings', async () => {
    const reply = await suite.list('staff');
    suite.conforms('staff/all', reply);
    const { alex, bo, cy } = suite.agents;
    assert.deepEqual(dataOf<Staff>(reply), {
      total: 3,
      staff: [
        { staff_id: String(alex), name: 'Alex Agent', dept_id: '1', isactive: '1' },
        { staff_id: String(bo), name: 'Bo Billing', dept_id: '2', isactive: '1' },
        { staff_id: String(cy), name: 'Cy Locked', dept_id: '2', isactive: '0' },
      ],
    });
  });

  test('never an e-mail address, a login name or a password hash', async () => {
    const reply = await suite.list('staff');
    assert.equal(reply.status, 200, reply.text);
    assert.doesNotMatch(reply.text, /deskgate\.test|login\.|\$2a\$|email|username|passwd/i);
  });

  test('dept_id: the members of that department (osTicket: with extra access too)', async () => {
    const { alex, bo, cy } = suite.agents;
    const billing = dataOf<Staff>(await suite.list('staff', { dept_id: 2 }));
    assert.deepEqual(ids(billing), [bo, cy]);
    const support = dataOf<Staff>(await suite.list('staff', { dept_id: '1' }));
    // Bo's access to department 1 is osTicket's staff_dept_access; deskgate's schema has none.
    assert.deepEqual(ids(support), database.osticket ? [alex, bo] : [alex]);
    assert.equal(support.staff.find((m) => Number(m.staff_id) === bo)?.dept_id ?? '2', '2');
    assert.deepEqual(dataOf<Staff>(await suite.list('staff', { dept_id: 999 })), {
      total: 0,
      staff: [],
    });
  });

  for (const dept_id of ['1 OR 1=1', "1' OR '1'='1", '1; DELETE FROM ost_staff', -1, 0, 1.5, '']) {
    test(`dept_id ${JSON.stringify(dept_id)} → 400 naming it, nothing changes`, async () => {
      const before = await suite.countRows();
      const reply = await suite.list('staff', { dept_id });
      assert.equal(reply.status, 400, reply.text);
      assert.deepEqual(
        reply.body?.errors?.map((error) => error.field),
        ['parameters.dept_id'],
      );
      assert.deepEqual(await suite.countRows(), before);
    });
  }

  test('a key without tickets:read → 403 insufficient_scope', async () => {
    const reply = await suite.list('staff', undefined, suite.readKey);
    assert.equal(reply.status, 403, reply.text);
    assert.equal(reply.body?.code, 'insufficient_scope');
  });
});

describeWithDatabase('staff/all is bounded', SQLITE, (database) => {
  const server = useTestServer({ database, env: { DESKGATE_MAX_LIST: '2' } });

  test('more agents than DESKGATE_MAX_LIST → 400 too_many_results, not a list cut short', async () => {
    for (const name of ['Ann One', 'Ben Two', 'Cat Three']) await addAgent(server.store, name);
    const reply = await server.request({ query: 'staff', condition: 'all' }, { method: 'GET' });
    assert.equal(reply.status, 400, reply.text);
    assert.equal(reply.body?.code, 'too_many_results');
    const department = await server.request(
      { query: 'staff', condition: 'all', parameters: { dept_id: 2 } },
      { method: 'GET' },
    );
    assert.deepEqual(dataOf(department), { total: 0, staff: [] });
  });
});
