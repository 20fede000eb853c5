import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeEachDatabase } from '../../../test/helpers/each-database.ts';
import { useTicketChangeSuite } from '../../../test/helpers/ticket-changes.ts';

describeEachDatabase('ticket/update', (database) => {
  const suite = useTicketChangeSuite(database);

  test('priority and due date: lastupdate = updated, one edited event per field with before and after', async () => {
    const id = await suite.open();
    const before = await suite.read(id);
    const reply = await suite.change('update', id, {
      priority_id: 4,
      duedate: '2099-12-01 17:00:00',
    });
    assert.equal(reply.status, 200, reply.text);
    assert.equal(reply.body?.data, id);
    const ticket = await suite.read(id);
    assert.equal(ticket.priority_id, '4');
    assert.equal(ticket.priority, 'Emergency');
    assert.equal(ticket.duedate, '2099-12-01 17:00:00');
    assert.equal(ticket.lastupdate, ticket.updated);
    assert.ok(String(ticket.updated) > String(before.updated));
    const events = await suite.events(id);
    assert.deepEqual(
      events.map((e) => [e.kind, e.staff_id, e.data]),
      [
        ['created', 0, null],
        ['edited', suite.agentId, { priority_id: [2, 4] }],
        ['edited', suite.agentId, { duedate: [null, '2099-12-01 17:00:00'] }],
      ],
    );
    assert.deepEqual(events[1]?.changes, { priority_id: [2, 4] });
  });

  test('the values it has change nothing; null clears the due date; SLA 0 clears the SLA due time', async () => {
    const id = await suite.open();
    const before = await suite.read(id);
    const same = await suite.change('update', id, {
      priority_id: Number(before.priority_id),
      sla_id: Number(before.sla_id),
      duedate: null,
    });
    assert.equal(same.status, 200, same.text);
    assert.deepEqual(await suite.read(id), before);
    assert.equal(typeof before.est_duedate, 'string');
    const cleared = await suite.change('update', id, { sla_id: 0 });
    assert.equal(cleared.status, 200, cleared.text);
    const ticket = await suite.read(id);
    assert.equal(ticket.sla_id, '0');
    assert.equal(ticket.est_duedate, null);
    const events = await suite.events(id);
    assert.deepEqual(events.at(-1)?.data, { sla_id: [Number(before.sla_id), 0] });
    assert.deepEqual(events.at(-1)?.changes, {
      sla_id: [Number(before.sla_id), 0],
      sla_due_at: [before.est_duedate, null],
    });
  });

  test('unknown ids, a due date not in the future, no field at all → 400 naming it, nothing written', async () => {
    const id = await suite.open();
    await suite.refusesNamingTheField('update', { ticket_id: id, staff_id: suite.agentId }, [
      [{ priority_id: 99 }, 'parameters.priority_id'],
      [{ topic_id: 999_999 }, 'parameters.topic_id'],
      [{ sla_id: 999_999 }, 'parameters.sla_id'],
      [{ duedate: '2001-01-01 00:00:00' }, 'parameters.duedate'],
      [{ duedate: '2099-13-01 00:00:00' }, 'parameters.duedate'],
      [{ priority_id: '1 OR 1=1' }, 'parameters.priority_id'],
      [{}, 'parameters'],
    ]);
  });

  test('a stale if_unmodified_since → 409 with the current updated; Idempotency-Key → one event, the same answer', async () => {
    const id = await suite.open();
    const { updated } = await suite.read(id);
    const headers = { 'Idempotency-Key': `update-${id}` };
    const parameters = {
      ticket_id: id,
      staff_id: suite.agentId,
      topic_id: 1,
      if_unmodified_since: updated,
    };
    const first = await suite.write('update', parameters, { headers });
    const again = await suite.write('update', parameters, { headers });
    assert.equal(first.status, 200, first.text);
    assert.equal(again.status, 200, again.text);
    assert.equal(again.body?.data, first.body?.data);
    const stale = await suite.write('update', { ...parameters, priority_id: 1 });
    assert.equal(stale.status, 409, stale.text);
    const ticket = await suite.read(id);
    assert.equal(stale.body?.updated, ticket.updated);
    assert.equal(ticket.priority_id, '2');
    assert.deepEqual(
      (await suite.events(id)).map((e) => [e.kind, e.data]),
      [
        ['created', null],
        ['edited', { topic_id: [0, 1] }],
      ],
    );
  });
});
