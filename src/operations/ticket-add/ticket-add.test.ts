import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { describeEachDatabase } from '../../../test/helpers/each-database.ts';
import { useTestServer } from '../../../test/helpers/test-server.ts';
import { addUser, ticketAddBody } from '../../../test/helpers/tickets.ts';
import { openDatabase } from '../../data/open-database.ts';
import type { OwnTicketTables } from '../../data/tickets/own-tickets.ts';
import { tickets } from '../../data/tickets/tickets.ts';

interface TicketData {
  total: number;
  tickets: Record<string, unknown>[];
}

describeEachDatabase('ticket/add', (database) => {
  const server = useTestServer({ database });
  let userId: number;

  before(async () => {
    userId = await addUser(server.store);
  });

  const countTickets = async () =>
    (
      await server.store.data(tickets).listTickets({
        order: 'created',
        from: undefined,
        to: undefined,
        statusId: 0,
        after: undefined,
        limit: 100_000,
        notes: false,
      })
    ).length;
  const add = (overrides: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
    server.request(ticketAddBody(userId, overrides), { method: 'POST', headers });
  const read = async (id: unknown) => {
    const reply = await server.request({
      query: 'ticket',
      condition: 'specific',
      parameters: { id },
    });
    assert.equal(reply.status, 200, reply.text);
    return (reply.body?.data as TicketData | undefined)?.tickets[0] ?? {};
  };

  test('opens a ticket: the id in data, the number in X-Ticket-Number, the defaults a fresh osTicket has', async () => {
    const reply = await add({ priority_id: 3 });
    assert.equal(reply.status, 200, reply.text);
    assert.match(String(reply.body?.data), /^[1-9][0-9]*$/);
    const number = reply.headers['x-ticket-number'];
    assert.match(String(number), /^[0-9]{6,}$/);
    const ticket = await read(reply.body?.data);
    assert.equal(ticket.ticket_id, reply.body?.data);
    assert.equal(ticket.number, number);
    assert.equal(ticket.user_id, String(userId));
    assert.equal(ticket.subject, 'Printer on fire');
    assert.equal(ticket.priority_id, '3');
    assert.equal(ticket.priority, 'High');
    assert.equal(ticket.status_id, '1');
    assert.equal(ticket.dept_id, '1');
    assert.equal(ticket.sla_id, '1');
    assert.equal(ticket.source, 'API');
    assert.equal(ticket.closed, null);
    // The default SLA: 18 grace hours on the wall clock (decision 172).
    const created = Date.parse(`${String(ticket.created).replace(' ', 'T')}Z`);
    const due = Date.parse(`${String(ticket.est_duedate).replace(' ', 'T')}Z`);
    assert.equal(due - created, 18 * 3_600_000);
    const entries = ticket.entries as Record<string, string>[];
    assert.equal(entries.length, 1);
    assert.equal(entries[0]?.entry_type, 'M');
    assert.equal(entries[0]?.entry_body, 'The printer on floor 2 is on fire.');
    assert.equal(entries[0]?.entry_poster, 'Tess Ticket');
    for (const [name, value] of Object.entries(ticket)) {
      if (name !== 'entries') assert.ok(value === null || typeof value === 'string', name);
    }
  });

  test('omitted choices mean 0, and a closed status at creation closes the ticket', async () => {
    const reply = await server.request(
      {
        query: 'ticket',
        condition: 'add',
        parameters: {
          title: 'Done already',
          subject: 'Fixed it myself.',
          user_id: userId,
          status_id: 3,
        },
      },
      { method: 'PUT' },
    );
    assert.equal(reply.status, 200, reply.text);
    const ticket = await read(reply.body?.data);
    assert.equal(ticket.status_id, '3');
    assert.equal(ticket.priority, 'Normal');
    assert.equal(ticket.closed, ticket.created);
    assert.equal(ticket.est_duedate, null);
  });

  test('HTML in the body is stored escaped: no markup reaches an agent page', async () => {
    const reply = await add({ subject: '<img src=x onerror=alert(1)> & "quotes"' });
    const ticket = await read(reply.body?.data);
    const [entry] = ticket.entries as Record<string, string>[];
    assert.equal(entry?.entry_body, '&lt;img src=x onerror=alert(1)&gt; &amp; &quot;quotes&quot;');
  });

  test('every unknown id → 400 naming the field, nothing written', async () => {
    const before = await countTickets();
    for (const [field, value] of [
      ['user_id', 999_999],
      ['priority_id', 99],
      ['status_id', 99],
      ['status_id', 4],
      ['dept_id', 99],
      ['sla_id', 99],
      ['topic_id', 99_999],
    ] as const) {
      const reply = await add({ [field]: value });
      assert.equal(reply.status, 400, `${field} ${reply.text}`);
      assert.equal(reply.body?.code, 'invalid_parameters');
      assert.deepEqual(
        reply.body?.errors?.map((e) => e.field),
        [`parameters.${field}`],
      );
    }
    const after = await countTickets();
    assert.equal(after, before);
  });

  test('bad fields → 400 naming every one', async () => {
    const reply = await add({ title: '', subject: 'a\u0000b', user_id: 'x', sla_id: -1, extra: 1 });
    assert.equal(reply.status, 400);
    assert.deepEqual(reply.body?.errors?.map((e) => e.field).sort(), [
      'parameters.extra',
      'parameters.sla_id',
      'parameters.subject',
      'parameters.title',
      'parameters.user_id',
    ]);
  });

  test('numbers are sequential and unique under concurrent creation', async () => {
    const replies = await Promise.all(Array.from({ length: 24 }, () => add()));
    for (const reply of replies) assert.equal(reply.status, 200, reply.text);
    const numbers = replies.map((reply) => Number(reply.headers['x-ticket-number']));
    assert.equal(new Set(numbers).size, numbers.length);
    const sorted = [...numbers].sort((a, b) => a - b);
    assert.equal((sorted.at(-1) ?? 0) - (sorted[0] ?? 0), numbers.length - 1, 'no gaps');
    const ids = replies.map((reply) => Number(reply.body?.data));
    assert.equal(new Set(ids).size, ids.length);
  });

  test('Idempotency-Key: a retry answers the first ticket, another body → 422, concurrent retries open one', async () => {
    const first = await add({ title: 'Once' }, { 'Idempotency-Key': 'ticket-once' });
    assert.equal(first.status, 200, first.text);
    const again = await add({ title: 'Once' }, { 'Idempotency-Key': 'ticket-once' });
    assert.equal(again.status, 200, again.text);
    assert.equal(again.body?.data, first.body?.data);
    assert.equal(again.headers['x-ticket-number'], first.headers['x-ticket-number']);
    const other = await add({ title: 'Twice' }, { 'Idempotency-Key': 'ticket-once' });
    assert.equal(other.status, 422);
    assert.equal(other.body?.code, 'idempotency_mismatch');

    const racing = await Promise.all(
      Array.from({ length: 8 }, () =>
        add({ title: 'Racing' }, { 'Idempotency-Key': 'ticket-race' }),
      ),
    );
    for (const reply of racing) assert.equal(reply.status, 200, reply.text);
    assert.equal(new Set(racing.map((reply) => reply.body?.data)).size, 1);
  });

  test('an Idempotency-Key of user/add does not answer ticket/add: keys are per operation', async () => {
    const user = await server.request(
      {
        query: 'user',
        condition: 'add',
        parameters: {
          name: 'Key Reuser',
          email: `reuser.${database.kind}@example.com`,
          password: 's3cret-Passw0rd',
          timezone: 'UTC',
          phone: 1,
          org_id: 0,
          default_email_id: 0,
          status: 0,
        },
      },
      { method: 'POST', headers: { 'Idempotency-Key': 'shared-key' } },
    );
    assert.equal(user.status, 200, user.text);
    const reply = await add({ title: 'Own key space' }, { 'Idempotency-Key': 'shared-key' });
    assert.equal(reply.status, 200, reply.text);
    assert.equal((await read(reply.body?.data)).subject, 'Own key space');
    const again = await add({ title: 'Own key space' }, { 'Idempotency-Key': 'shared-key' });
    assert.equal(again.body?.data, reply.body?.data);
  });

  test('needs tickets:write; GET is refused', async () => {
    const { key } = await server.createKey({
      scopes: ['read', 'write', 'users:read', 'tickets:read'],
    });
    const reply = await server.request(ticketAddBody(userId), { method: 'POST', key });
    assert.equal(reply.status, 403);
    assert.equal(reply.body?.code, 'insufficient_scope');
    const get = await server.request(ticketAddBody(userId));
    assert.equal(get.status, 405);
  });

  test('a subject never comes back as markup: tags stripped as osTicket does; markup only → 400', async () => {
    const reply = await server.request(
      ticketAddBody(userId, { title: '<img src=x onerror=alert(1)>Printer &amp; <b>fax</b>' }),
      { method: 'POST' },
    );
    assert.equal(reply.status, 200, reply.text);
    const id = Number(reply.body?.data);
    const read = async () => {
      const found = await server.request({
        query: 'ticket',
        condition: 'specific',
        parameters: { id },
      });
      assert.equal(found.status, 200, found.text);
      return (found.body?.data as { tickets: { subject: string }[] } | undefined)?.tickets[0]
        ?.subject;
    };
    assert.equal(await read(), 'Printer & fax');
    // A row as the original service wrote it (the subject as sent) is answered without its tags.
    const { db } = openDatabase<OwnTicketTables>(database.url);
    try {
      await db
        .updateTable('tickets')
        .set({ subject: '<script>x</script>Old <i>row</i>' })
        .where('id', '=', id)
        .execute();
    } finally {
      await db.destroy();
    }
    assert.equal(await read(), 'xOld row');
    const before = await countTickets();
    const refused = await server.request(ticketAddBody(userId, { title: '<b></b><img src=x>' }), {
      method: 'POST',
    });
    assert.equal(refused.status, 400, refused.text);
    assert.deepEqual(refused.body?.errors, [
      { field: 'parameters.title', message: 'must hold text, not only markup' },
    ]);
    assert.equal(await countTickets(), before);
  });
});
