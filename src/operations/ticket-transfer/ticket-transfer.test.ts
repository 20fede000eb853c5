import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { describeEachDatabase } from '../../../test/helpers/each-database.ts';
import { entriesOf, useTicketChangeSuite } from '../../../test/helpers/ticket-changes.ts';

describeEachDatabase('ticket/transfer', (database) => {
  const suite = useTicketChangeSuite(database);
  let hardware = 0;
  let transientSla = 0;

  before(async () => {
    await suite.direct(async (db) => {
      const at = '2026-11-01 00:00:00';
      await db
        .insertInto('sla_plans')
        .values({
          name: 'Hardware 8h',
          grace_period: 8,
          flags: 1,
          notes: '',
          created_at: at,
          updated_at: at,
        })
        .execute();
      await db
        .insertInto('sla_plans')
        .values({
          name: 'Triage',
          grace_period: 2,
          flags: 1 | 8,
          notes: '',
          created_at: at,
          updated_at: at,
        })
        .execute();
      const plans = await db.selectFrom('sla_plans').select(['id', 'name']).execute();
      const idOf = (name: string) => Number(plans.find((plan) => plan.name === name)?.id);
      transientSla = idOf('Triage');
      await db
        .insertInto('departments')
        .values({
          name: 'Hardware',
          signature: '',
          is_public: 1,
          sla_id: idOf('Hardware 8h'),
          created_at: at,
          updated_at: at,
        })
        .execute();
      const row = await db
        .selectFrom('departments')
        .select('id')
        .where('name', '=', 'Hardware')
        .executeTakeFirstOrThrow();
      hardware = Number(row.id);
    });
  });

  test('to another department: dept_id, a transferred event {"dept":name}, the comments a note; the SLA kept', async () => {
    const id = await suite.open();
    const before = await suite.read(id);
    const reply = await suite.change('transfer', id, {
      dept_id: hardware,
      comments: 'Hardware, not software.',
    });
    assert.equal(reply.status, 200, reply.text);
    assert.equal(reply.body?.data, id);
    const ticket = await suite.read(id);
    assert.equal(ticket.dept_id, String(hardware));
    assert.equal(ticket.sla_id, before.sla_id, "a ticket's own (not transient) plan stays");
    assert.ok(String(ticket.updated) > String(before.updated));
    assert.deepEqual(entriesOf(ticket).at(-1), [
      'N',
      'Ticket transferred from Support to Hardware',
      'Hardware, not software.',
      String(suite.agentId),
    ]);
    assert.deepEqual(
      (await suite.events(id)).map((e) => [e.kind, e.staff_id, e.dept_id, e.data, e.changes]),
      [
        ['created', 0, 1, null, null],
        ['transferred', suite.agentId, hardware, { dept: 'Hardware' }, { dept_id: [1, hardware] }],
      ],
    );
  });

  test("a transient SLA plan gives way to the new department's; a closed ticket is reopened", async () => {
    const id = await suite.open();
    assert.equal((await suite.change('update', id, { sla_id: transientSla })).status, 200);
    await suite.write('status', { ticket_id: id, staff_id: suite.agentId, status_id: 3 });
    const reply = await suite.change('transfer', id, { dept_id: hardware });
    assert.equal(reply.status, 200, reply.text);
    const ticket = await suite.read(id);
    assert.notEqual(ticket.sla_id, String(transientSla));
    assert.equal(ticket.status_id, '1');
    assert.deepEqual(
      (await suite.events(id)).map((e) => e.kind),
      ['created', 'edited', 'closed', 'reopened', 'transferred'],
    );
  });

  test('its own department again changes nothing; unknown ones → 400, nothing written', async () => {
    const id = await suite.open();
    const before = await suite.read(id);
    const same = await suite.change('transfer', id, { dept_id: 1, comments: 'Stay.' });
    assert.equal(same.status, 200, same.text);
    assert.deepEqual(await suite.read(id), before);
    await suite.refusesNamingTheField('transfer', { ticket_id: id, staff_id: suite.agentId }, [
      [{ dept_id: 999_999 }, 'parameters.dept_id'],
      [{ dept_id: '2; DROP TABLE tickets' }, 'parameters.dept_id'],
      [{ dept_id: 0 }, 'parameters.dept_id'],
      [{ dept_id: hardware, ticket_id: 999_999 }, 'parameters.ticket_id'],
    ]);
  });

  test('a stale if_unmodified_since → 409, nothing written; Idempotency-Key → one event', async () => {
    const id = await suite.open();
    const { updated } = await suite.read(id);
    await suite.change('note', id, { body: 'A note moves nothing.' });
    const headers = { 'Idempotency-Key': `transfer-${id}` };
    const parameters = {
      ticket_id: id,
      staff_id: suite.agentId,
      dept_id: hardware,
      if_unmodified_since: updated,
    };
    const first = await suite.write('transfer', parameters, { headers });
    const again = await suite.write('transfer', parameters, { headers });
    assert.equal(first.status, 200, first.text);
    assert.equal(again.body?.data, first.body?.data);
    const counts = await suite.counts();
    const stale = await suite.write('transfer', { ...parameters, dept_id: 1 });
    assert.equal(stale.status, 409, stale.text);
    assert.equal(stale.body?.code, 'conflict');
    assert.deepEqual(await suite.counts(), counts);
    assert.equal((await suite.read(id)).dept_id, String(hardware));
  });
});
