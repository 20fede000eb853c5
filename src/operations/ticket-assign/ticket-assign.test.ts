import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { describeEachDatabase } from '../../../test/helpers/each-database.ts';
import { entriesOf, useTicketChangeSuite } from '../../../test/helpers/ticket-changes.ts';

describeEachDatabase('ticket/assign', (database) => {
  const suite = useTicketChangeSuite(database);
  let teamId = 0;
  let oldTeamId = 0;

  before(async () => {
    await suite.direct(async (db) => {
      const at = '2026-11-01 00:00:00';
      for (const [name, enabled] of [
        ['Level I Support', 1],
        ['Old team', 0],
      ] as const) {
        await db
          .insertInto('teams')
          .values({ name, is_enabled: enabled, created_at: at, updated_at: at })
          .execute();
      }
      const rows = await db.selectFrom('teams').select(['id', 'name']).orderBy('id').execute();
      teamId = Number(rows.find((row) => row.name === 'Level I Support')?.id);
      oldTeamId = Number(rows.find((row) => row.name === 'Old team')?.id);
    });
  });

  test('to another agent: staff_id, updated, an assigned event {"staff":[id,name]}, the comments a note', async () => {
    const id = await suite.open();
    const before = await suite.read(id);
    const reply = await suite.change('assign', id, {
      agent_id: suite.otherAgentId,
      comments: 'Printer expert.',
    });
    assert.equal(reply.status, 200, reply.text);
    assert.equal(reply.body?.data, id);
    const ticket = await suite.read(id);
    assert.equal(ticket.staff_id, String(suite.otherAgentId));
    assert.ok(String(ticket.updated) > String(before.updated));
    assert.equal(ticket.lastupdate, before.lastupdate, 'osTicket leaves lastupdate on assignment');
    assert.deepEqual(entriesOf(ticket).at(-1), [
      'N',
      'Ticket Assigned to Olga Other',
      'Printer expert.',
      String(suite.agentId),
    ]);
    const events = await suite.events(id);
    assert.deepEqual(
      events.map((e) => [e.kind, e.staff_id, e.data, e.changes]),
      [
        ['created', 0, null, null],
        [
          'assigned',
          suite.agentId,
          { staff: [suite.otherAgentId, 'Olga Other'] },
          { staff_id: [0, suite.otherAgentId] },
        ],
      ],
    );
  });

  test('to the acting agent: a claim; the same agent again changes nothing; 0 releases', async () => {
    const id = await suite.open();
    const claim = { ticket_id: id, staff_id: suite.agentId, agent_id: suite.agentId };
    assert.equal((await suite.write('assign', claim)).status, 200);
    const claimed = await suite.read(id);
    const again = await suite.write('assign', { ...claim, comments: 'Mine.' });
    assert.equal(again.status, 200, again.text);
    assert.deepEqual(await suite.read(id), claimed, 'nothing changed, no note');
    const released = await suite.write('assign', { ...claim, agent_id: 0 });
    assert.equal(released.status, 200, released.text);
    assert.equal((await suite.read(id)).staff_id, '0');
    const nothing = await suite.write('assign', { ...claim, agent_id: 0 });
    assert.equal(nothing.status, 200, nothing.text);
    assert.deepEqual(
      (await suite.events(id)).map((e) => [e.kind, e.data]),
      [
        ['created', null],
        ['assigned', { claim: true }],
        ['released', { staff: [suite.agentId, 'Alex Agent'] }],
      ],
    );
  });

  test('to a team, and released from it; a closed ticket assigned is reopened', async () => {
    const id = await suite.open();
    await suite.write('status', { ticket_id: id, staff_id: suite.agentId, status_id: 3 });
    const reply = await suite.change('assign', id, { team_id: teamId });
    assert.equal(reply.status, 200, reply.text);
    const ticket = await suite.read(id);
    assert.equal(ticket.team_id, String(teamId));
    assert.equal(ticket.status_id, '1', 'reopened');
    assert.equal(ticket.closed, null);
    const released = await suite.change('assign', id, { team_id: 0 });
    assert.equal(released.status, 200, released.text);
    assert.equal((await suite.read(id)).team_id, '0');
    assert.deepEqual(
      (await suite.events(id)).map((e) => [e.kind, e.data, e.team_id]),
      [
        ['created', null, 0],
        ['closed', { status: [3, 'Closed'] }, 0],
        ['assigned', { team: teamId }, teamId],
        ['reopened', null, teamId],
        ['released', { team: teamId }, 0],
      ],
    );
  });

  test('unknown, inactive or disabled assignees, both or neither → 400 naming the field, nothing written', async () => {
    const id = await suite.open();
    await suite.direct((db) =>
      db.updateTable('agents').set({ is_active: 0 }).where('name', '=', 'Olga Other').execute(),
    );
    try {
      await suite.refusesNamingTheField('assign', { ticket_id: id, staff_id: suite.agentId }, [
        [{ agent_id: 999_999 }, 'parameters.agent_id'],
        [{ agent_id: suite.otherAgentId }, 'parameters.agent_id'],
        [{ team_id: 999_999 }, 'parameters.team_id'],
        [{ team_id: oldTeamId }, 'parameters.team_id'],
        [{ agent_id: '2 OR 1=1' }, 'parameters.agent_id'],
        [{}, 'parameters.agent_id'],
        [{ agent_id: suite.agentId, team_id: teamId }, 'parameters.agent_id'],
      ]);
    } finally {
      await suite.direct((db) =>
        db.updateTable('agents').set({ is_active: 1 }).where('name', '=', 'Olga Other').execute(),
      );
    }
  });

  test('if_unmodified_since stale → 409 with the current updated; Idempotency-Key → one event', async () => {
    const id = await suite.open();
    const { updated } = await suite.read(id);
    const headers = { 'Idempotency-Key': `assign-${id}` };
    const parameters = {
      ticket_id: id,
      staff_id: suite.agentId,
      agent_id: suite.otherAgentId,
      if_unmodified_since: updated,
    };
    const first = await suite.write('assign', parameters, { headers });
    const again = await suite.write('assign', parameters, { headers });
    assert.equal(first.status, 200, first.text);
    assert.equal(again.status, 200, again.text);
    assert.equal(again.body?.data, first.body?.data);
    const stale = await suite.write('assign', { ...parameters, agent_id: suite.agentId });
    assert.equal(stale.status, 409, stale.text);
    assert.equal(stale.body?.updated, (await suite.read(id)).updated);
    assert.deepEqual(
      (await suite.events(id)).map((e) => e.kind),
      ['created', 'assigned'],
    );
  });
});
