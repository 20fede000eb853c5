import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  REAL_OSTICKET_SKIP,
  type RealOsticket,
  startRealOsticket,
} from '../helpers/real-osticket.ts';
import { type SmtpSink, startSmtpSink } from '../helpers/smtp-sink.ts';
import { OSTICKET_DIR } from '../osticket/osticket-database.ts';

const skip = REAL_OSTICKET_SKIP;

describe('the real osTicket 1.18.1 harness', { skip }, () => {
  let osticket: RealOsticket;
  let sink: SmtpSink;

  const openByApi = (email: string, subject: string, key = osticket.apiKey.key) =>
    fetch(`${osticket.baseUrl}api/tickets.json`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ email, name: 'Harness Person', subject, message: 'It smokes.' }),
    });

  before(async () => {
    sink = await startSmtpSink();
    osticket = await startRealOsticket({ formerApiKey: false });
  });
  after(async () => {
    await osticket?.stop();
    await sink?.stop();
  });

  test('the installer made exactly the tables of schema-1.18.1.sql', async () => {
    const expected = [
      ...readFileSync(join(OSTICKET_DIR, 'schema-1.18.1.sql'), 'utf8').matchAll(
        /CREATE TABLE `(\w+)`/g,
      ),
    ]
      .map((match) => match[1])
      .sort();
    const rows = await osticket.query<{ name: string }>(
      'SELECT table_name AS name FROM information_schema.tables WHERE table_schema = DATABASE() ORDER BY table_name',
    );
    assert.equal(expected.length, 72);
    assert.deepEqual(rows.map((row) => row.name).sort(), expected);
  });

  test("osTicket's API creates a ticket: 201 with its number", async () => {
    const response = await openByApi('harness@example.net', 'Printer on fire');
    const number = await response.text();
    assert.equal(response.status, 201, number);
    const [row] = await osticket.query<{ subject: string }>(
      `SELECT c.subject FROM ost_ticket t JOIN ost_ticket__cdata c USING (ticket_id) WHERE t.number = ?`,
      [number],
    );
    assert.equal(row?.subject, 'Printer on fire');
  });

  test('a wrong API key is refused with 401 and nothing written', async () => {
    const [before] = await osticket.query<{ n: number }>('SELECT COUNT(*) AS n FROM ost_ticket');
    const response = await openByApi('x@example.net', 'S', 'F'.repeat(32));
    assert.equal(response.status, 401);
    const [afterward] = await osticket.query<{ n: number }>('SELECT COUNT(*) AS n FROM ost_ticket');
    assert.equal(afterward?.n, before?.n);
  });

  test('the staff panel signs the administrator in, and refuses a wrong password', async () => {
    const browser = await osticket.staffBrowser();
    const page = await browser.get('scp/tickets.php');
    assert.match(page.text, /Welcome, <strong>Desk<\/strong>/);
    await assert.rejects(
      osticket.staffBrowser({ ...osticket.admin, password: 'wrong-password-1' }),
      /staff login as deskadmin failed/,
    );
  });

  test('cron runs: it marks a ticket past its due date overdue, and PHP runs with osTicket loaded', async () => {
    const [ticket] = await osticket.query<{ ticket_id: number }>(
      'SELECT ticket_id FROM ost_ticket LIMIT 1',
    );
    assert.ok(ticket);
    await osticket.query(
      'UPDATE ost_ticket SET est_duedate = NOW() - INTERVAL 1 DAY, isoverdue = 0 WHERE ticket_id = ?',
      [ticket.ticket_id],
    );
    await osticket.runCron();
    const [row] = await osticket.query<{ isoverdue: number }>(
      'SELECT isoverdue FROM ost_ticket WHERE ticket_id = ?',
      [ticket.ticket_id],
    );
    assert.equal(row?.isoverdue, 1);
    assert.equal(await osticket.runPhp('echo $cfg->getTitle();'), 'deskgate test desk');
  });

  test("mail routed to the SMTP sink arrives there (osTicket's own alert for a new ticket)", async () => {
    await osticket.routeMailTo(sink.port);
    const response = await openByApi('mailed@example.net', 'Mail me');
    assert.equal(response.status, 201);
    const mails = await sink.waitFor(1);
    assert.ok(
      mails.some(
        (mail) => mail.to.includes('mailed@example.net') || mail.to.includes(osticket.admin.email),
      ),
      JSON.stringify(mails.map((mail) => mail.to)),
    );
  });
});
