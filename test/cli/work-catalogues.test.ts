import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { migrateDatabase } from '../helpers/cli-data.ts';
import { describeEachDatabaseKind } from '../helpers/each-database.ts';
import { insertTicketLists } from '../osticket/osticket-ticket-rows.ts';
import { assertCleanFailure, runCliJson, runCliText } from './cli-assertions.ts';

// Issue 35, item 6: "the CLI can list statuses, priorities, agents and teams".
describeEachDatabaseKind('deskgate statuses, priorities and teams', (database) => {
  const args = () => (database.osticket ? [] : ['--database', database.url]);
  const env = () => database.env;

  before(async () => {
    await migrateDatabase(database.url, env());
    const osticket = database.osticket;
    if (!osticket) return;
    // As osTicket's installer and admin panel write them.
    await insertTicketLists(osticket);
    await osticket.query(
      `INSERT INTO ost_team (lead_id, flags, name, notes, created, updated)
       VALUES (0, 1, 'Level I Support', NULL, NOW(), NOW()), (0, 0, 'Old team', NULL, NOW(), NOW())`,
    );
    await osticket.query(
      `INSERT INTO ost_staff (dept_id, role_id, username, firstname, lastname, email, signature,
         isactive, created, updated)
       VALUES (1, 1, 'login.alex', 'Alex', 'Agent', 'alex@deskgate.test', '', 1, NOW(), NOW())`,
    );
  });

  test('agents list in osTicket mode: its staff as staff/all answers them, no e-mail or login', {
    skip:
      database.kind === 'osticket'
        ? false
        : 'deskgate agents add/list are tested in agents-tasks.test.ts',
  }, async () => {
    const staff = await runCliJson<Record<string, unknown>[]>(['agents', 'list', ...args()], env());
    assert.deepEqual(
      staff.map(({ id: _id, ...rest }) => rest),
      [{ name: 'Alex Agent', dept_id: 1, active: true }],
    );
    const text = await runCliText(['agents', 'list', ...args()], env());
    assert.match(text, /Alex Agent/);
    assert.doesNotMatch(text, /login\.alex|deskgate\.test/);
  });

  test('statuses list: the statuses status/all answers', async () => {
    const statuses = await runCliJson<{ id: number; name: string; state: string }[]>(
      ['statuses', 'list', ...args()],
      env(),
    );
    assert.deepEqual(
      statuses.map((s) => `${s.id} ${s.name} ${s.state}`),
      ['1 Open open', '2 Resolved closed', '3 Closed closed'],
    );
    assert.match(await runCliText(['statuses', 'list', ...args()], env()), /3\s+Closed\s+closed/);
  });

  test('priorities list: every priority with its urgency', async () => {
    const priorities = await runCliJson<{ id: number; name: string; urgency: number }[]>(
      ['priorities', 'list', ...args()],
      env(),
    );
    assert.deepEqual(
      priorities.map((p) => `${p.id} ${p.name} ${p.urgency}`),
      ['1 Low 4', '2 Normal 3', '3 High 2', '4 Emergency 1'],
    );
  });

  test('teams add (own schema) and teams list', async () => {
    if (!database.osticket) {
      const added = await runCliJson<{ id: number; name: string; enabled: boolean }>(
        ['teams', 'add', '--name', 'Level I Support', ...args()],
        env(),
      );
      assert.equal(added.enabled, true);
      await runCliJson(['teams', 'add', '--name', 'Old team', '--disabled', ...args()], env());
      assertCleanFailure(
        await runCli(['teams', 'add', '--name', 'Old team', ...args()], env()),
        1,
        /name/,
      );
    } else {
      assertCleanFailure(
        await runCli(['teams', 'add', '--name', 'New team', ...args()], env()),
        1,
        /osTicket/,
      );
    }
    assertCleanFailure(await runCli(['teams', 'add', '--name', '  ', ...args()], env()), 2);
    const teams = await runCliJson<{ name: string; enabled: boolean }[]>(
      ['teams', 'list', ...args()],
      env(),
    );
    assert.deepEqual(
      teams.map((t) => [t.name, t.enabled]),
      [
        ['Level I Support', true],
        ['Old team', false],
      ],
    );
  });
});
