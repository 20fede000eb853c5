import assert from 'node:assert/strict';
import { test } from 'node:test';
import { dataOf } from '../../../test/helpers/catalogue-server.ts';
import { describeEachDatabaseKind } from '../../../test/helpers/each-database.ts';
import { useWorkCatalogueServer } from '../../../test/helpers/work-catalogue-server.ts';

describeEachDatabaseKind('priority/all', (database) => {
  const suite = useWorkCatalogueServer(database);

  test('every priority in id order, its name as agents see it, urgency as a string', async () => {
    const reply = await suite.list('priority');
    suite.conforms('priority/all', reply);
    assert.deepEqual(dataOf(reply), {
      total: 4,
      priorities: [
        { id: '1', name: 'Low', urgency: '4' },
        { id: '2', name: 'Normal', urgency: '3' },
        { id: '3', name: 'High', urgency: '2' },
        { id: '4', name: 'Emergency', urgency: '1' },
      ],
    });
  });

  test('an injection as a parameter is a 400, nothing changes', async () => {
    const before = await suite.countRows();
    const reply = await suite.list('priority', { id: '1; DROP TABLE ost_ticket_priority' });
    assert.equal(reply.status, 400, reply.text);
    assert.equal(reply.body?.code, 'invalid_parameters');
    assert.deepEqual(await suite.countRows(), before);
  });

  test('a key without tickets:read → 403 insufficient_scope', async () => {
    const reply = await suite.list('priority', undefined, suite.readKey);
    assert.equal(reply.status, 403, reply.text);
    assert.equal(reply.body?.code, 'insufficient_scope');
  });
});
