import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeEachDatabase } from '../../../test/helpers/each-database.ts';
import { entriesOf, useTicketChangeSuite } from '../../../test/helpers/ticket-changes.ts';

describeEachDatabase('ticket/note', (database) => {
  const suite = useTicketChangeSuite(database);

  test('an internal note: the entry id, the agent its poster, only --notes keys read it; the ticket unchanged, no event', async () => {
    const id = await suite.open();
    const before = await suite.read(id);
    const reply = await suite.change('note', id, {
      title: 'Called <i>them</i>',
      body: 'Serial <b>42</b> tomorrow.',
      if_unmodified_since: before.updated,
    });
    assert.equal(reply.status, 200, reply.text);
    const ticket = await suite.read(id);
    const entries = ticket.entries as Record<string, string>[];
    assert.equal(entries.at(-1)?.entry_id, reply.body?.data);
    assert.equal(entries.at(-1)?.entry_poster, 'Alex Agent');
    assert.deepEqual(entriesOf(ticket).at(-1), [
      'N',
      'Called them',
      'Serial &lt;b&gt;42&lt;/b&gt; tomorrow.',
      String(suite.agentId),
    ]);
    assert.equal(ticket.updated, before.updated);
    assert.equal(ticket.lastupdate, before.lastupdate);
    assert.deepEqual(
      (await suite.events(id)).map((e) => e.kind),
      ['created'],
    );
    const { key } = await suite.server.createKey({ scopes: ['tickets:read'] });
    assert.deepEqual(
      entriesOf(await suite.read(id, key)).map(([type]) => type),
      ['M'],
      'no note for a key without the notes grant',
    );
  });

  test('Idempotency-Key: two calls, one note, the same answer; other parameters → 422', async () => {
    const id = await suite.open();
    const headers = { 'Idempotency-Key': `note-${id}` };
    const parameters = { ticket_id: id, staff_id: suite.agentId, body: 'Once.' };
    const first = await suite.write('note', parameters, { headers });
    const again = await suite.write('note', parameters, { headers });
    assert.equal(first.status, 200, first.text);
    assert.equal(again.status, 200, again.text);
    assert.equal(again.body?.data, first.body?.data);
    assert.equal(entriesOf(await suite.read(id)).filter(([type]) => type === 'N').length, 1);
    const other = await suite.write('note', { ...parameters, body: 'Twice.' }, { headers });
    assert.equal(other.status, 422, other.text);
    assert.equal(other.body?.code, 'idempotency_mismatch');
  });

  test('a stale if_unmodified_since, bad ids and bodies → 409 / 400, nothing written', async () => {
    const id = await suite.open();
    await suite.write('status', { ticket_id: id, staff_id: suite.agentId, status_id: 3 });
    const counts = await suite.counts();
    const stale = await suite.change('note', id, {
      body: 'Late.',
      if_unmodified_since: '2000-01-01 00:00:00',
    });
    assert.equal(stale.status, 409, stale.text);
    assert.equal(stale.body?.code, 'conflict');
    assert.equal(stale.body?.updated, (await suite.read(id)).updated);
    assert.deepEqual(await suite.counts(), counts);
    await suite.refusesNamingTheField('note', { staff_id: suite.agentId }, [
      [{ ticket_id: 999_999, body: 'x' }, 'parameters.ticket_id'],
      [{ ticket_id: "1' OR '1'='1", body: 'x' }, 'parameters.ticket_id'],
      [{ ticket_id: id, body: '   ' }, 'parameters.body'],
      [{ ticket_id: id, body: 'x', staff_id: 999_999 }, 'parameters.staff_id'],
      [{ ticket_id: id, body: 'x', title: 'x'.repeat(256) }, 'parameters.title'],
    ]);
  });
});
