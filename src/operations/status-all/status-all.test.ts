import assert from 'node:assert/strict';
import { test } from 'node:test';
import { dataOf } from '../../../test/helpers/catalogue-server.ts';
import { describeEachDatabaseKind } from '../../../test/helpers/each-database.ts';
import { useWorkCatalogueServer } from '../../../test/helpers/work-catalogue-server.ts';

interface Statuses {
  total: number;
  statuses: Record<string, string>[];
}

describeEachDatabaseKind('status/all', (database) => {
  const suite = useWorkCatalogueServer(database);

  test('the statuses a ticket can be set to, open and closed, in the help desk’s order, values as strings', async () => {
    const reply = await suite.list('status');
    suite.conforms('status/all', reply);
    // Archived and Deleted are not set through a status change; osTicket's disabled Hidden neither.
    assert.deepEqual(dataOf<Statuses>(reply), {
      total: 3,
      statuses: [
        { id: '1', name: 'Open', state: 'open' },
        { id: '2', name: 'Resolved', state: 'closed' },
        { id: '3', name: 'Closed', state: 'closed' },
      ],
    });
  });

  test('parameters may be given empty; anything in them is a 400 naming it', async () => {
    assert.equal(dataOf<Statuses>(await suite.list('status', {})).total, 3);
    const reply = await suite.list('status', { state: "open' OR '1'='1" });
    assert.equal(reply.status, 400, reply.text);
    assert.equal(reply.body?.code, 'invalid_parameters');
    assert.match(reply.text, /state/);
  });

  test('a key without tickets:read → 403 insufficient_scope', async () => {
    const reply = await suite.list('status', undefined, suite.readKey);
    assert.equal(reply.status, 403, reply.text);
    assert.equal(reply.body?.code, 'insufficient_scope');
  });
});
