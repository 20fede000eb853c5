import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { userFields } from '../helpers/http.ts';
import { FORMER_RIGHTS, grantOsticketKey } from '../helpers/osticket-key-grant.ts';
import { addBridgeKey, addOsticketUser, BRIDGE_PLUGIN } from '../helpers/osticket-ticket-rows.ts';
import {
  REAL_OSTICKET_SKIP,
  type RealOsticket,
  startRealOsticket,
} from '../helpers/real-osticket.ts';
import { type SmtpSink, type SunkMail, startSmtpSink } from '../helpers/smtp-sink.ts';
import { useTestServer } from '../helpers/test-server.ts';

const skip = REAL_OSTICKET_SKIP;
/** osTicket's Organization::SHARE_PRIMARY_CONTACT: its primary contacts see all its tickets. */
const SHARE_PRIMARY_CONTACT = 0x8;
const PASSWORD = 'Portal-Pass-1';

/** A mail's text: each MIME part decoded by its Content-Transfer-Encoding. */
function mailText(mail: SunkMail): string {
  return mail.data
    .split(/\r?\n--[^\r\n]+\r?\n/)
    .map((part) => {
      const [head = '', ...rest] = part.split(/\r?\n\r?\n/);
      const body = rest.join('\n\n');
      if (/content-transfer-encoding:\s*quoted-printable/i.test(head)) {
        return body
          .replace(/=\r?\n/g, '')
          .replace(/=([0-9A-F]{2})/g, (_, hex: string) =>
            String.fromCharCode(Number.parseInt(hex, 16)),
          );
      }
      if (/content-transfer-encoding:\s*base64/i.test(head))
        return Buffer.from(body.replace(/\s/g, ''), 'base64').toString('utf8');
      return body;
    })
    .join('\n');
}

/** osTicket's confirmation link (pwreset.php?token=…) in the mail to `address`. */
async function confirmationLink(sink: SmtpSink, address: string): Promise<string> {
  for (let count = 1; ; count++) {
    const mails = await sink.waitFor(count);
    const mail = mails.find((m) => m.to.includes(address));
    if (!mail) continue;
    // The HTML part's href: the text part wraps a long link across lines.
    const link = /href="(https?:\/\/[^"]*\/pwreset\.php\?token=[^"]+)"/.exec(mailText(mail));
    assert.ok(link?.[1], `a confirmation link in the mail to ${address}`);
    return link[1];
  }
}

describe("user/add's portal accounts and organizations, in a real osTicket 1.18.1's client portal", {
  skip,
}, () => {
  let osticket: RealOsticket;
  let sink: SmtpSink;
  /** A back-office's key: can create tickets, granted organizations and confirmed accounts. */
  let backOffice: { id: number; key: string };
  let sharingOrg: number;
  /** The number of the member's ticket, which the organization shares with its primary contacts. */
  let memberTicket: string;
  const deskgateKey = 'D'.repeat(32);
  const osticketMode = { DESKGATE_SCHEMA: 'osticket', DESKGATE_TABLE_PREFIX: 'ost_' };

  before(async () => {
    sink = await startSmtpSink();
    osticket = await startRealOsticket({ plugins: [BRIDGE_PLUGIN] });
    await osticket.routeMailTo(sink.port);
    const admin = await osticket.staffBrowser();
    await addBridgeKey(osticket, admin, deskgateKey);
    // An organization that shares its tickets with its primary contacts, and one of its members
    // with a confidential ticket.
    sharingOrg = await osticket.insert(
      `INSERT INTO ost_organization (name, status, created, updated) VALUES ('Acme', ?, NOW(), NOW())`,
      [SHARE_PRIMARY_CONTACT],
    );
    const member = await addOsticketUser(osticket, 'ceo@acme.example', 'Acme CEO');
    await osticket.query('UPDATE ost_user SET org_id = ? WHERE id = ?', [sharingOrg, member]);
    const [ticket] = await osticket.query<{ number: string }>(
      'SELECT number FROM ost_ticket WHERE user_id = ?',
      [member],
    );
    memberTicket = String(ticket?.number);
    const backOfficeKey = 'B'.repeat(32);
    backOffice = {
      id: await osticket.insert(
        `INSERT INTO ost_api_key (isactive, ipaddr, apikey, can_create_tickets, can_exec_cron, notes, updated, created)
         VALUES (1, '127.0.0.1', ?, 1, 0, 'back-office', NOW(), NOW())`,
        [backOfficeKey],
      ),
      key: backOfficeKey,
    };
    await grantOsticketKey({ url: osticket.databaseUrl, prefix: 'ost_' }, backOffice.id, [
      ...FORMER_RIGHTS,
      '--organizations',
      '--confirmed-accounts',
    ]);
  });
  after(async () => {
    await osticket?.stop();
    await sink?.stop();
  });

  const deskgate = useTestServer(() => ({
    database: osticket.databaseUrl,
    env: {
      ...osticketMode,
      DESKGATE_OSTICKET_URL: osticket.baseUrl,
      DESKGATE_OSTICKET_API_KEY: deskgateKey,
      DESKGATE_OSTICKET_BRIDGE: 'true',
    },
    ownKey: false,
  }));

  /** user/add with `key`: by default the install's own key, which has no account grant. */
  const addUser = (parameters: Record<string, unknown>, key = osticket.apiKey.key) =>
    deskgate.request(
      {
        query: 'user',
        condition: 'add',
        parameters: userFields({ password: PASSWORD, org_id: 0, status: 0, ...parameters }),
      },
      { method: 'POST', key },
    );

  test("a pending account cannot sign in to the portal until the person follows osTicket's confirmation link", async () => {
    const email = 'pending@example.net';
    const reply = await addUser({ email });
    assert.equal(reply.status, 200, reply.text);
    assert.equal(reply.headers['x-account-status'], 'pending');
    assert.equal(reply.headers['x-confirmation-mail'], 'sent');

    // The password is right, the account not yet confirmed: osTicket refuses the sign-in.
    const early = osticket.browser();
    await early.get('login.php');
    const refused = await early.postForm('login.php', { luser: email, lpasswd: PASSWORD });
    assert.doesNotMatch(refused.text, /Sign Out/i);
    assert.match(refused.text, /confirmation required/i);

    // osTicket's own mail (its registration-client template) carries the link that confirms.
    const link = await confirmationLink(sink, email);
    const person = osticket.browser();
    const confirmed = await person.get(link);
    assert.match(confirmed.text, /Sign Out/i, 'the link confirms and signs the person in');
    const [account] = await osticket.query<{ status: number }>(
      'SELECT a.status FROM ost_user_account a JOIN ost_user_email e ON e.user_id = a.user_id WHERE e.address = ?',
      [email],
    );
    assert.equal(account?.status, 1);
    // From now on the password given to user/add works.
    await osticket.browser().signInClient(email, PASSWORD);

    // The plugin mails only a pending account: asked again, it refuses and sends nothing.
    const mails = sink.messages.length;
    const again = await fetch(`${osticket.baseUrl}api/deskgate/account-confirmation.json`, {
      method: 'POST',
      headers: { 'x-api-key': deskgateKey, 'content-type': 'application/json' },
      body: JSON.stringify({ user_id: Number(reply.body?.data) }),
    });
    assert.equal(again.status, 409);
    assert.equal(((await again.json()) as { error?: string }).error, 'already_confirmed');
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.equal(sink.messages.length, mails, 'no second mail');
  });

  test('an organization that shares its tickets with its primary contact cannot be joined without the grant; with it, it can', async () => {
    const email = 'intruder@example.net';
    const refused = await addUser({ email, org_id: sharingOrg, status: 1 });
    assert.equal(refused.status, 403, refused.text);
    assert.equal(refused.body?.code, 'account_grant_required');
    assert.match(
      String(refused.body?.data),
      new RegExp(
        `deskgate osticket keys grant ${osticket.apiKey.id} --scope [a-z:,]+ --organizations\\b`,
      ),
    );
    const written = await osticket.query('SELECT id FROM ost_user_email WHERE address = ?', [
      email,
    ]);
    assert.deepEqual(written, [], 'nothing written');

    // The admin granted organizations and confirmed accounts (a back-office that verified the
    // address): the primary contact reads the organization's tickets at once.
    const reply = await addUser({ email, org_id: sharingOrg, status: 1 }, backOffice.key);
    assert.equal(reply.status, 200, reply.text);
    assert.equal(reply.headers['x-account-status'], 'confirmed');
    const portal = osticket.browser();
    await portal.signInClient(email, PASSWORD);
    const tickets = await portal.get('tickets.php');
    assert.match(tickets.text, new RegExp(`\\b${memberTicket}\\b`));
  });
});
