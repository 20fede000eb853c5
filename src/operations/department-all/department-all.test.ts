import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { dataOf, useCatalogueServer } from '../../../test/helpers/catalogue-server.ts';
import { describeEachDatabaseKind } from '../../../test/helpers/each-database.ts';

const all = (sort: string, parameters: Record<string, unknown> = {}) => ({
  query: 'department',
  condition: 'all',
  sort,
  parameters,
});

describeEachDatabaseKind('department/all', (database) => {
  const suite = useCatalogueServer(database);
  let billing: string;

  before(async () => {
    // Beside the Support department both layouts start with: one shown, one archived, one internal.
    for (const parameters of [
      { name: 'Billing' },
      { name: 'Archive', flags: 8 },
      { name: 'Backoffice', ispublic: 0 },
    ]) {
      const id = dataOf<string>(
        await suite.request({ query: 'department', condition: 'add', parameters }, 'POST'),
      );
      if (parameters.name === 'Billing') billing = id;
    }
  });

  test('by name: the active public departments, as osTicket shows its clients', async () => {
    const byName = dataOf<{ total: number; departments: Record<string, string>[] }>(
      await suite.request(all('name'), 'GET', suite.readKey),
    );
    assert.deepEqual(
      byName.departments.map((d) => d.name),
      ['Billing', 'Support'],
    );
    assert.equal(byName.total, 2);
    assert.equal(byName.departments[0]?.department_id, billing);
    assert.equal(byName.departments[0]?.parent_id, '0');
  });

  test('by creation date (the default sort), paged with limit and next', async () => {
    const range = { start_date: '2000-01-01', end_date: '2100-01-01' };
    const first = dataOf<{ departments: Record<string, string>[]; next?: string }>(
      await suite.request(all('creationDate', { ...range, limit: 1 }), 'GET', suite.readKey),
    );
    assert.equal(first.departments.length, 1);
    assert.ok(first.next);
    const rest = dataOf<{ departments: Record<string, string>[]; next?: string }>(
      await suite.request(
        { query: 'department', condition: 'all', parameters: { ...range, after: first.next } },
        'GET',
        suite.readKey,
      ),
    );
    assert.deepEqual([...first.departments, ...rest.departments].map((d) => d.name).sort(), [
      'Billing',
      'Support',
    ]);
  });

  test('an injection in a date is a 400', async () => {
    const before = await suite.countRows();
    const reply = await suite.request(
      all('creationDate', { start_date: "2020-01-01' OR '1'='1", end_date: '2030-01-01' }),
      'GET',
      suite.readKey,
    );
    assert.equal(reply.status, 400, reply.text);
    assert.deepEqual(await suite.countRows(), before);
  });
});
