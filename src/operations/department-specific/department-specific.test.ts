import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { dataOf, useCatalogueServer } from '../../../test/helpers/catalogue-server.ts';
import { describeEachDatabaseKind } from '../../../test/helpers/each-database.ts';

const specific = (id: unknown) => ({
  query: 'department',
  condition: 'specific',
  parameters: { id },
});

describeEachDatabaseKind('department/specific', (database) => {
  const suite = useCatalogueServer(database);
  const added: Record<string, string> = {};

  before(async () => {
    for (const parameters of [
      { name: 'Billing' },
      { name: 'Archive', flags: 8 },
      { name: 'Backoffice', ispublic: 0 },
    ]) {
      added[parameters.name] = dataOf<string>(
        await suite.request({ query: 'department', condition: 'add', parameters }, 'POST'),
      );
    }
  });

  test("one active public department, with the original's keys", async () => {
    const found = dataOf<{ total: number; departments: Record<string, string>[] }>(
      await suite.request(specific(added.Billing), 'GET', suite.readKey),
    );
    assert.equal(found.total, 1);
    assert.deepEqual(Object.keys(found.departments[0] ?? {}).sort(), [
      'created',
      'department_id',
      'name',
      'parent_id',
    ]);
    assert.equal(found.departments[0]?.name, 'Billing');
  });

  test('an archived or internal department is not shown to clients (204), nor a missing one', async () => {
    for (const id of [added.Archive, added.Backoffice, 999_999]) {
      const reply = await suite.request(specific(id), 'GET', suite.readKey);
      assert.equal(reply.status, 204, `department ${id} is not shown to clients`);
    }
  });

  test('an id that is no integer (an injection) is a 400', async () => {
    const before = await suite.countRows();
    const reply = await suite.request(specific('1; DROP TABLE departments'), 'GET', suite.readKey);
    assert.equal(reply.status, 400, reply.text);
    assert.deepEqual(await suite.countRows(), before);
  });
});
