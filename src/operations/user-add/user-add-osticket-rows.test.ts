import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { verify } from '@node-rs/bcrypt';
import { runCli } from '../../../test/helpers/cli.ts';
import { call, type Reply, userBody } from '../../../test/helpers/http.ts';
import { FORMER_RIGHTS, grantOsticketKey } from '../../../test/helpers/osticket-key-grant.ts';
import { type StartedServer, startServer } from '../../../test/helpers/server.ts';
import {
  createOsticketDatabase,
  OSTICKET_SKIP,
  type OsticketDatabase,
  type OsticketKey,
  osticketEnv,
  README_FILE,
} from '../../../test/osticket/osticket-database.ts';

const skip = OSTICKET_SKIP;
const TIMESTAMP = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/;

type Row = Record<string, unknown>;

/** The `ost__search` content README.md says osTicket wrote for "Staff Made" (phone 5551234). */
function readmeSearchContent(): string {
  const readme = readFileSync(README_FILE, 'utf8');
  const match = /`ost__search` \|.*`content` = "([^"]+)"/.exec(readme);
  assert.ok(match?.[1], 'README.md documents the _search row');
  return match[1].replaceAll('\\n', '\n');
}

// osTicket mode only: its exact rows, grants, mail and refusals have no counterpart on deskgate's
// own schema. user/add's behaviour on every kind, osTicket mode included, is in user-add.test.ts.
describe('user/add in osTicket mode writes the rows osTicket writes', { skip }, () => {
  let database: OsticketDatabase;
  let server: StartedServer;
  /** Keys like the write key, one granted organizations only, one confirmed accounts only. */
  let organizations: OsticketKey;
  let confirmed: OsticketKey;
  let p: string;

  async function rowsOf(table: string, where: string, values: unknown[]): Promise<Row[]> {
    return database.query<Row>(`SELECT * FROM \`${p}${table}\` WHERE ${where}`, values);
  }

  /** Rows per osTicket table, to show which tables a creation touched. */
  async function rowCounts(): Promise<Record<string, number>> {
    const tables = await database.query<{ name: string }>(
      `SELECT table_name AS name FROM information_schema.tables
       WHERE table_schema = DATABASE() AND table_name LIKE ? ORDER BY 1`,
      [`${p}%`],
    );
    const counts: Record<string, number> = {};
    for (const { name } of tables) {
      const [row] = await database.query<{ n: number }>(`SELECT COUNT(*) AS n FROM \`${name}\``);
      counts[name.slice(p.length)] = Number(row?.n);
    }
    return counts;
  }

  async function fieldId(name: string): Promise<number> {
    const [row] = await database.query<{ id: number }>(
      `SELECT f.id FROM \`${p}form_field\` f JOIN \`${p}form\` m ON m.id = f.form_id WHERE m.type = 'U' AND f.name = ?`,
      [name],
    );
    return Number(row?.id);
  }

  function add(
    parameters: Record<string, unknown>,
    { key = database.writeKey, on = server }: { key?: OsticketKey; on?: StartedServer } = {},
  ): Promise<Reply> {
    return call(on.url, {
      method: 'POST',
      headers: { apikey: key.key },
      // Organisation 0 and status 0 unless a test says otherwise: any other needs a grant.
      body: userBody({ org_id: 0, status: 0, ...parameters }),
    });
  }

  async function assertRefused(parameters: Record<string, unknown>, field: string): Promise<Reply> {
    const before = await rowCounts();
    const reply = await add(parameters);
    assert.equal(reply.status, 400, reply.text);
    assert.equal(reply.body?.code, 'invalid_parameters');
    assert.deepEqual(
      (reply.body?.errors as { field: string }[] | undefined)?.map((e) => e.field),
      [`parameters.${field}`],
    );
    assert.deepEqual(await rowCounts(), before, 'a refused user leaves no row anywhere');
    return reply;
  }

  before(async () => {
    database = await createOsticketDatabase();
    p = database.prefix;
    const ticketKey = async (label: string): Promise<OsticketKey> => {
      const key = randomBytes(16).toString('hex').toUpperCase();
      const id = await database.insert(
        `INSERT INTO \`${p}api_key\` (isactive, ipaddr, apikey, can_create_tickets, can_exec_cron, notes, updated, created)
         VALUES (1, '127.0.0.1', ?, 1, 0, ?, NOW(), NOW())`,
        [key, label],
      );
      return { id, key };
    };
    organizations = await ticketKey('organizations key');
    confirmed = await ticketKey('confirmed accounts key');
    const env = osticketEnv(database);
    await grantOsticketKey(database, organizations.id, [...FORMER_RIGHTS, '--organizations']);
    await grantOsticketKey(database, confirmed.id, [...FORMER_RIGHTS, '--confirmed-accounts']);
    server = await startServer({ databaseUrl: database.url, env });
  });
  after(async () => {
    await server?.stop();
    await database?.drop();
  });

  test("a user has exactly README.md's rows, in every table osTicket writes and no other", async () => {
    const before = await rowCounts();
    const password = 'staff secret';
    const reply = await add({
      name: 'Staff Made',
      email: 'staffmade@example.com',
      password,
      timezone: 'Europe/Lisbon',
      phone: '5551234',
      org_id: 0,
      // Clients of the PHP service send 1; the stored value is the new address's id.
      default_email_id: 1,
      status: 0,
    });
    assert.equal(reply.status, 200, reply.text);
    const id = Number(reply.body?.data);
    // Pending until the person follows osTicket's confirmation link; no plugin here to mail it.
    assert.equal(reply.headers['x-account-status'], 'pending');
    assert.equal(reply.headers['x-confirmation-mail'], 'not-sent');

    const afterCounts = await rowCounts();
    const changed = Object.fromEntries(
      Object.entries(afterCounts)
        .filter(([table, n]) => n !== before[table])
        .map(([table, n]) => [table, n - (before[table] ?? 0)]),
    );
    assert.deepEqual(changed, {
      _search: 1,
      form_entry: 1,
      form_entry_values: 2,
      user: 1,
      user__cdata: 1,
      user_account: 1,
      user_email: 1,
    });

    const [email] = await rowsOf('user_email', 'user_id = ?', [id]);
    assert.deepEqual(email, {
      id: email?.id,
      user_id: id,
      flags: 0,
      address: 'staffmade@example.com',
    });

    const [user] = await rowsOf('user', 'id = ?', [id]);
    assert.deepEqual(user, {
      id,
      org_id: 0,
      default_email_id: email?.id,
      status: 0,
      name: 'Staff Made',
      created: user?.created,
      updated: user?.created,
    });
    assert.match(String(user?.created), TIMESTAMP);

    const [account] = await rowsOf('user_account', 'user_id = ?', [id]);
    assert.deepEqual(
      { ...account, passwd: undefined, registered: undefined },
      {
        id: account?.id,
        user_id: id,
        status: 0,
        timezone: 'Europe/Lisbon',
        lang: null,
        username: null,
        passwd: undefined,
        backend: null,
        extra: null,
        registered: undefined,
      },
    );
    assert.match(
      String(account?.passwd),
      /^\$2a\$08\$[./A-Za-z0-9]{53}$/,
      "osTicket's own $2a$08$",
    );
    assert.equal(await verify(password, String(account?.passwd)), true);
    assert.match(String(account?.registered), TIMESTAMP);

    const [form] = await database.query<{ id: number }>(
      `SELECT id FROM \`${p}form\` WHERE type = 'U'`,
    );
    const [entry] = await rowsOf('form_entry', "object_type = 'U' AND object_id = ?", [id]);
    assert.deepEqual(entry, {
      id: entry?.id,
      form_id: form?.id,
      object_id: id,
      object_type: 'U',
      sort: 1,
      extra: null,
      created: user?.created,
      updated: user?.created,
    });

    const values = await rowsOf('form_entry_values', 'entry_id = ? ORDER BY field_id', [entry?.id]);
    assert.deepEqual(values, [
      { entry_id: entry?.id, field_id: await fieldId('phone'), value: '5551234', value_id: null },
      { entry_id: entry?.id, field_id: await fieldId('notes'), value: null, value_id: null },
    ]);

    const cdata = await rowsOf('user__cdata', 'user_id = ?', [id]);
    assert.deepEqual(cdata, [
      { user_id: id, email: null, name: null, phone: '5551234', notes: '' },
    ]);

    const search = await rowsOf('_search', "object_type = 'U' AND object_id = ?", [id]);
    assert.deepEqual(search, [
      { object_type: 'U', object_id: id, title: 'Staff Made', content: readmeSearchContent() },
    ]);

    // deskgate reads the user back from the same rows: the phone from the form answer.
    const shown = await runCli(['users', 'get', String(id), '--json'], osticketEnv(database));
    assert.equal(shown.code, 0, shown.stderr);
    // osTicket's clock is the database server's: the text shows it without a zone (no Z).
    const text = await runCli(['users', 'get', String(id)], osticketEnv(database));
    const created = String(user?.created).replace(' ', 'T');
    assert.match(text.stdout, new RegExp(`^created {10}${created}$`, 'm'));
    assert.deepEqual(JSON.parse(shown.stdout), {
      id,
      name: 'Staff Made',
      email: 'staffmade@example.com',
      timezone: 'Europe/Lisbon',
      phone: '5551234',
      org_id: 0,
      default_email_id: email?.id,
      status: 0,
      created: user?.created,
      updated: user?.created,
    });
  });

  test("the search row shows the phone as osTicket's phone field does, for every length", async () => {
    for (const [phone, shown] of [
      [5551234, '555-1234'],
      [5551234567, '(555) 123-4567'],
      [351210000000, '351210000000'],
      [12345, '12345'],
    ] as const) {
      const address = `phone.${phone}@example.com`;
      const reply = await add({ email: address, phone, name: '  Phone   Person ' });
      assert.equal(reply.status, 200, reply.text);
      const [row] = await rowsOf('_search', "object_type = 'U' AND object_id = ?", [
        Number(reply.body?.data),
      ]);
      assert.equal(row?.content, `${shown} ${address}\n${address}`);
      assert.equal(row?.title, 'Phone Person');
    }
  });

  test('phone 0 is no phone: an empty answer, as osTicket stores a blank field', async () => {
    const reply = await add({ email: 'nophone@example.com', phone: 0 });
    assert.equal(reply.status, 200, reply.text);
    const id = Number(reply.body?.data);
    const [cdata] = await rowsOf('user__cdata', 'user_id = ?', [id]);
    assert.equal(cdata?.phone, '');
    const [search] = await rowsOf('_search', 'object_id = ?', [id]);
    assert.equal(search?.content, ' nophone@example.com\nnophone@example.com');
  });

  test('org_id must be 0 or an existing organisation', async () => {
    const refused = await (async () => {
      const before = await rowCounts();
      const reply = await add({ email: 'org@example.com', org_id: 77 }, { key: organizations });
      assert.equal(reply.status, 400, reply.text);
      assert.deepEqual(await rowCounts(), before);
      return reply;
    })();
    assert.equal(refused.body?.code, 'invalid_parameters');
    const inserted = (await database.query(
      `INSERT INTO \`${p}organization\` (name, created, updated) VALUES ('Acme', NOW(), NOW())`,
    )) as unknown as { insertId: number };
    const orgId = inserted.insertId;
    const reply = await add({ email: 'org@example.com', org_id: orgId }, { key: organizations });
    assert.equal(reply.status, 200, reply.text);
    const [user] = await rowsOf('user', 'id = ?', [Number(reply.body?.data)]);
    assert.equal(user?.org_id, orgId);
  });

  test("an organization or the primary-contact bit needs the key's organizations grant (403, nothing written)", async () => {
    const orgId = await database.insert(
      `INSERT INTO \`${p}organization\` (name, status, created, updated) VALUES ('Shares', 8, NOW(), NOW())`,
    );
    for (const [label, key, parameters] of [
      ['any org_id', database.writeKey, { org_id: orgId }],
      ['an org_id that does not exist', database.writeKey, { org_id: 77 }],
      ['the primary-contact bit without an org', database.writeKey, { status: 1 }],
      ['the primary-contact bit among others', database.writeKey, { org_id: orgId, status: 3 }],
      ['confirmed accounts are not organizations', confirmed, { org_id: orgId }],
    ] as const) {
      const before = await rowCounts();
      const reply = await add({ email: 'joiner@example.com', ...parameters }, { key });
      assert.equal(reply.status, 403, `${label}: ${reply.text}`);
      assert.equal(reply.body?.code, 'account_grant_required', label);
      assert.match(
        String(reply.body?.data),
        // The key's whole grant with --organizations added: a grant replaces the earlier one.
        new RegExp(`deskgate osticket keys grant ${key.id} --scope [a-z:,]+ --organizations\\b`),
      );
      assert.deepEqual(await rowCounts(), before, `${label}: nothing written`);
    }
    // Other status bits are no organization's business.
    const other = await add({ email: 'status2@example.com', status: 2 });
    assert.equal(other.status, 200, other.text);
    const granted = await add(
      { email: 'primary@example.com', org_id: orgId, status: 1 },
      { key: organizations },
    );
    assert.equal(granted.status, 200, granted.text);
    const [user] = await rowsOf('user', 'id = ?', [Number(granted.body?.data)]);
    assert.deepEqual([user?.org_id, user?.status], [orgId, 1]);
    // The organizations grant does not confirm the account.
    const [account] = await rowsOf('user_account', 'user_id = ?', [user?.id]);
    assert.equal(account?.status, 0);
    assert.equal(granted.headers['x-account-status'], 'pending');
  });

  test('a key with the confirmed-accounts grant makes confirmed accounts and says so', async () => {
    const reply = await add({ email: 'backoffice@example.com' }, { key: confirmed });
    assert.equal(reply.status, 200, reply.text);
    assert.equal(reply.headers['x-account-status'], 'confirmed');
    assert.equal(reply.headers['x-confirmation-mail'], undefined);
    const [account] = await rowsOf('user_account', 'user_id = ?', [Number(reply.body?.data)]);
    assert.equal(account?.status, 1, "osTicket's UserAccountStatus::CONFIRMED");
  });

  test('an osTicket that cannot send the confirmation mail leaves the user created and pending, the reason in the log', async () => {
    // A port nothing listens on: the plugin's route is never reached.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise((resolve) => probe.close(resolve));
    const unreachable = await startServer({
      databaseUrl: database.url,
      env: {
        ...osticketEnv(database),
        DESKGATE_OSTICKET_URL: `http://127.0.0.1:${port}/`,
        DESKGATE_OSTICKET_API_KEY: 'D'.repeat(32),
        DESKGATE_OSTICKET_BRIDGE: 'true',
      },
    });
    try {
      const reply = await add({ email: 'unmailed@example.com' }, { on: unreachable });
      assert.equal(reply.status, 200, reply.text);
      assert.equal(reply.headers['x-account-status'], 'pending');
      assert.equal(reply.headers['x-confirmation-mail'], 'not-sent');
      const [account] = await rowsOf('user_account', 'user_id = ?', [Number(reply.body?.data)]);
      assert.equal(account?.status, 0);
    } finally {
      await unreachable.stop();
    }
    // Log lines are buffered (decision 093): all are out once the server stopped.
    const logged = unreachable.output.join('\n');
    assert.match(logged, /confirmation mail for the new pending account was not sent/);
    assert.doesNotMatch(logged, /DDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDD/, 'never the key');
  });

  test("a 4-byte character in osTicket's utf8mb3 tables is a 400 naming the field, not a 500", async () => {
    const [column] = await database.query<{ cs: string }>(
      `SELECT character_set_name AS cs FROM information_schema.columns
       WHERE table_schema = DATABASE() AND table_name = ? AND column_name = 'name'`,
      [`${p}user`],
    );
    assert.equal(column?.cs, 'utf8mb3', 'the reference schema is utf8mb3');
    const reply = await assertRefused({ email: 'emoji@example.com', name: 'Smile 😀' }, 'name');
    assert.match(String(reply.body?.data), /4-byte|emoji/);
    // Three-byte characters are fine.
    const ok = await add({ email: 'bmp@example.com', name: 'Zoë ✓ 日本' });
    assert.equal(ok.status, 200, ok.text);
  });

  test('passwords: bcrypt and MD5 hex stored as given, argon2 and short plain ones refused', async () => {
    const bcrypt = '$2y$10$.vGA1O9wmRjrwAVXD98HNOgsNpDczlqm3Jq7KnEd1rVAGv3Fykk1a';
    const md5 = createHash('md5').update('legacy secret').digest('hex');
    for (const [label, password] of [
      ['bcrypt', bcrypt],
      ['md5', md5],
    ] as const) {
      const reply = await add({ email: `pw.${label}@example.com`, password });
      assert.equal(reply.status, 200, reply.text);
      const [account] = await rowsOf('user_account', 'user_id = ?', [Number(reply.body?.data)]);
      assert.equal(account?.passwd, password, `${label} as given`);
    }
    await assertRefused(
      {
        email: 'pw.argon@example.com',
        password:
          '$argon2id$v=19$m=65536,t=3,p=4$c29tZXNhbHRzb21lc2FsdA$RdescudvJCsgt3ub+b+dWRWJTmaaJObG',
      },
      'password',
    );
    await assertRefused({ email: 'pw.short@example.com', password: 'abc12' }, 'password');
    const six = await add({ email: 'pw.six@example.com', password: 'abc123' });
    assert.equal(six.status, 200, six.text);
  });

  test('no syslog rows unless DESKGATE_OSTICKET_SYSLOG is on', async () => {
    const rows = await database.query(`SELECT * FROM \`${p}syslog\``);
    assert.deepEqual(rows, []);
  });
});
