import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeEachDatabase } from '../../../test/helpers/each-database.ts';
import { entriesOf, useTicketChangeSuite } from '../../../test/helpers/ticket-changes.ts';
import { tasks } from '../../data/tasks/tasks.ts';

describeEachDatabase('ticket/status', (database) => {
  const suite = useTicketChangeSuite(database);

  test('a closed status closes: closed = lastupdate = updated, the agent, one closed event, comments as a note', async () => {
    const id = await suite.open();
    const reply = await suite.change('status', id, { status_id: 3, comments: 'Fire <b>out</b>.' });
    assert.equal(reply.status, 200, reply.text);
    assert.equal(reply.body?.data, id);
    const ticket = await suite.read(id);
    assert.equal(ticket.status_id, '3');
    assert.equal(typeof ticket.closed, 'string');
    assert.equal(ticket.lastupdate, ticket.closed);
    assert.equal(ticket.updated, ticket.closed);
    assert.equal(ticket.staff_id, String(suite.agentId));
    assert.equal(ticket.isoverdue, '0');
    assert.deepEqual(entriesOf(ticket).at(-1), [
      'N',
      'Status Changed',
      'Fire &lt;b&gt;out&lt;/b&gt;.',
      String(suite.agentId),
    ]);
    const events = await suite.events(id);
    assert.deepEqual(
      events.map((e) => [e.kind, e.staff_id, e.data]),
      [
        ['created', 0, null],
        ['closed', suite.agentId, { status: [3, 'Closed'] }],
      ],
    );
    assert.deepEqual(events[1]?.changes, {
      status_id: [1, 3],
      staff_id: [0, suite.agentId],
      closed_at: [null, ticket.closed],
    });
  });

  test('the same status again: 200, no event, no note, updated unchanged', async () => {
    const id = await suite.open();
    const before = await suite.read(id);
    const reply = await suite.change('status', id, { status_id: 1, comments: 'Still open.' });
    assert.equal(reply.status, 200, reply.text);
    assert.deepEqual(await suite.read(id), before);
    assert.deepEqual(
      (await suite.events(id)).map((e) => e.kind),
      ['created'],
    );
  });

  test('an open status reopens a closed ticket: reopened, unanswered, its agent kept, a reopened event', async () => {
    const id = await suite.open();
    const closed = await suite.change('status', id, { status_id: 2 });
    assert.equal(closed.status, 200, closed.text);
    const reopened = await suite.write('status', {
      ticket_id: id,
      staff_id: suite.otherAgentId,
      status_id: 1,
    });
    assert.equal(reopened.status, 200, reopened.text);
    const ticket = await suite.read(id);
    assert.equal(ticket.status_id, '1');
    assert.equal(ticket.closed, null);
    assert.equal(typeof ticket.reopened, 'string');
    assert.equal(ticket.lastupdate, ticket.reopened);
    assert.equal(ticket.isanswered, '0');
    assert.equal(
      ticket.staff_id,
      String(suite.agentId),
      "the closing agent keeps it (osTicket's reopen)",
    );
    assert.equal(typeof ticket.est_duedate, 'string', 'the SLA due time is counted again');
    const events = await suite.events(id);
    assert.deepEqual(
      events.map((e) => [e.kind, e.staff_id, e.data]),
      [
        ['created', 0, null],
        ['closed', suite.agentId, { status: [2, 'Resolved'] }],
        ['reopened', suite.otherAgentId, null],
      ],
    );
  });

  test('if_unmodified_since: the current updated changes it and moves updated on; a stale one → 409 with the current, nothing written', async () => {
    const id = await suite.open();
    const { updated } = await suite.read(id);
    const first = await suite.change('status', id, { status_id: 3, if_unmodified_since: updated });
    assert.equal(first.status, 200, first.text);
    const after = await suite.read(id);
    assert.ok(String(after.updated) > String(updated), 'every change gives a new updated');
    const counts = await suite.counts();
    const stale = await suite.change('status', id, {
      status_id: 1,
      comments: 'Reopening.',
      if_unmodified_since: updated,
    });
    assert.equal(stale.status, 409, stale.text);
    assert.equal(stale.body?.code, 'conflict');
    assert.equal(stale.body?.updated, after.updated);
    assert.deepEqual(await suite.counts(), counts);
    assert.deepEqual(await suite.read(id), after);
  });

  test('two changes read at the same updated: the database lets exactly one through', async () => {
    const id = await suite.open();
    const { updated } = await suite.read(id);
    const replies = await Promise.all(
      [2, 3].map((statusId) =>
        suite.change('status', id, { status_id: statusId, if_unmodified_since: updated }),
      ),
    );
    assert.deepEqual(
      replies.map((r) => r.status).sort(),
      [200, 409],
      replies.map((r) => r.text).join('\n'),
    );
    assert.deepEqual(
      (await suite.events(id)).map((e) => e.kind),
      ['created', 'closed'],
    );
  });

  test('ids are checked (400 naming the field), injection payloads are inert; nothing written', async () => {
    const id = await suite.open();
    await suite.refusesNamingTheField('status', { staff_id: suite.agentId }, [
      [{ ticket_id: 999_999, status_id: 3 }, 'parameters.ticket_id'],
      [{ ticket_id: '5 OR 1=1', status_id: 3 }, 'parameters.ticket_id'],
      [{ ticket_id: id, status_id: 99 }, 'parameters.status_id'],
      [{ ticket_id: id, status_id: "3' OR '1'='1" }, 'parameters.status_id'],
      [{ ticket_id: id, status_id: 4 }, 'parameters.status_id'],
      [{ ticket_id: id, status_id: 3, staff_id: 999_999 }, 'parameters.staff_id'],
      [
        { ticket_id: id, status_id: 3, if_unmodified_since: 'yesterday' },
        'parameters.if_unmodified_since',
      ],
    ]);
  });

  test('open tasks: a closed status → 409 not_closeable, nothing written', async () => {
    const id = await suite.open();
    await suite.server.store.data(tasks).createTask({
      ticketId: Number(id),
      deptId: 1,
      staffId: suite.agentId,
      title: 'Replace the toner',
      description: 'Before closing.',
    });
    const counts = await suite.counts();
    const reply = await suite.change('status', id, { status_id: 3 });
    assert.equal(reply.status, 409, reply.text);
    assert.equal(reply.body?.code, 'not_closeable');
    assert.deepEqual(await suite.counts(), counts);
  });

  test('Idempotency-Key: the same key twice is one change and one answer; other parameters → 422', async () => {
    const id = await suite.open();
    const headers = { 'Idempotency-Key': `status-${id}` };
    const parameters = { ticket_id: id, staff_id: suite.agentId, status_id: 3, comments: 'Done.' };
    const first = await suite.write('status', parameters, { headers });
    const again = await suite.write('status', parameters, { headers });
    assert.equal(first.status, 200, first.text);
    assert.equal(again.status, 200, again.text);
    assert.equal(
      again.text.replace(/"time":[0-9.e-]+/, ''),
      first.text.replace(/"time":[0-9.e-]+/, ''),
    );
    assert.deepEqual(
      (await suite.events(id)).map((e) => e.kind),
      ['created', 'closed'],
    );
    assert.equal(entriesOf(await suite.read(id)).filter(([type]) => type === 'N').length, 1);
    const other = await suite.write('status', { ...parameters, status_id: 2 }, { headers });
    assert.equal(other.status, 422, other.text);
    assert.equal(other.body?.code, 'idempotency_mismatch');
  });

  test('a key acts only as its agents (403 naming the grant), before the ticket is looked at', async () => {
    const { key } = await suite.server.createKey({
      scopes: ['tickets:read', 'tickets:write'],
      agents: [suite.agentId],
    });
    const counts = await suite.counts();
    for (const ticketId of [await suite.open(), 999_999]) {
      const reply = await suite.write(
        'status',
        { ticket_id: ticketId, staff_id: suite.otherAgentId, status_id: 3 },
        { key },
      );
      assert.equal(reply.status, 403, reply.text);
      assert.equal(reply.body?.code, 'agent_not_allowed');
    }
    const { key: reader } = await suite.server.createKey({ scopes: ['tickets:read'] });
    const refused = await suite.write('status', { ticket_id: 1, status_id: 3 }, { key: reader });
    assert.equal(refused.status, 403, refused.text);
    assert.equal(refused.body?.code, 'insufficient_scope');
    const after = await suite.counts();
    assert.equal(after.ticket_events, (counts.ticket_events ?? 0) + 1, 'only the new ticket');
  });

  test('the change feed has one event per change, the agent as its actor; a no-op adds none', async () => {
    const id = await suite.open();
    const as = { ticket_id: id, staff_id: suite.agentId };
    for (const [condition, parameters] of [
      ['status', { status_id: 3, comments: 'Fixed.' }],
      ['status', { status_id: 3 }],
      ['status', { status_id: 1 }],
      ['assign', { agent_id: suite.otherAgentId }],
      ['update', { priority_id: 3 }],
    ] as const) {
      const reply = await suite.write(condition, { ...as, ...parameters });
      assert.equal(reply.status, 200, reply.text);
    }
    // Notes reach the feed only for a key with the notes grant.
    const { key } = await suite.server.createKey({ scopes: ['tickets:read'], notes: true });
    const feed = await suite.server.request(
      {
        query: 'events',
        condition: 'since',
        parameters: { start_time: '2000-01-01', ticket_id: Number(id) },
      },
      { key },
    );
    assert.equal(feed.status, 200, feed.text);
    const data = feed.body?.data as
      | { events: { type: string; actor: { type: string; id: number | null } }[] }
      | undefined;
    const events = data?.events ?? [];
    assert.deepEqual(
      events.map((e) => e.type),
      [
        'ticket.created',
        'ticket.message.created',
        'ticket.note.created',
        'ticket.status_changed',
        'ticket.status_changed',
        'ticket.assigned',
        'ticket.updated',
      ],
    );
    for (const event of events.slice(2))
      assert.deepEqual([event.actor.type, event.actor.id], ['staff', suite.agentId]);
  });
});
