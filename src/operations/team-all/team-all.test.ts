import assert from 'node:assert/strict';
import { test } from 'node:test';
import { dataOf } from '../../../test/helpers/catalogue-server.ts';
import { describeEachDatabaseKind } from '../../../test/helpers/each-database.ts';
import { useWorkCatalogueServer } from '../../../test/helpers/work-catalogue-server.ts';

interface Teams {
  total: number;
  teams: Record<string, string>[];
}

describeEachDatabaseKind('team/all', (database) => {
  const suite = useWorkCatalogueServer(database);

  test('every team, enabled or not, in id order, values as strings', async () => {
    const reply = await suite.list('team');
    suite.conforms('team/all', reply);
    const { total, teams } = dataOf<Teams>(reply);
    assert.equal(total, 2);
    assert.deepEqual(
      teams.map(({ name, isenabled }) => ({ name, isenabled })),
      [
        { name: 'Level I Support', isenabled: '1' },
        { name: 'Old team', isenabled: '0' },
      ],
    );
    assert.ok(teams.every((team) => /^[0-9]+$/.test(team.team_id ?? '')));
    assert.deepEqual(Object.keys(teams[0] ?? {}).sort(), ['isenabled', 'name', 'team_id']);
  });

  test('an injection as a parameter is a 400, nothing changes', async () => {
    const before = await suite.countRows();
    const reply = await suite.list('team', { name: "x' OR '1'='1" });
    assert.equal(reply.status, 400, reply.text);
    assert.deepEqual(await suite.countRows(), before);
  });

  test('a key without tickets:read → 403 insufficient_scope', async () => {
    const reply = await suite.list('team', undefined, suite.readKey);
    assert.equal(reply.status, 403, reply.text);
    assert.equal(reply.body?.code, 'insufficient_scope');
  });
});
