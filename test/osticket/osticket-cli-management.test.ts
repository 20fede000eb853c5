import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { assertCleanFailure } from '../cli/cli-assertions.ts';
import { runCli } from '../helpers/cli.ts';
import {
  createOsticketDatabase,
  OSTICKET_SKIP,
  type OsticketDatabase,
  osticketEnv,
} from './osticket-database.ts';

describe('osTicket mode: keys, users and topics are managed in osTicket', {
  skip: OSTICKET_SKIP,
}, () => {
  let database: OsticketDatabase;
  before(async () => {
    database = await createOsticketDatabase();
    // deskgate's own tables beside osTicket's, as the first start creates them.
    const migrated = await runCli(['migrate'], osticketEnv(database));
    assert.equal(migrated.code, 0, migrated.stderr);
  });
  after(async () => {
    await database?.drop();
  });

  test('keys rotate, users delete, topics edit/delete, departments/sla add and faq import refuse with one line; nothing changes', async () => {
    const env = osticketEnv(database);
    const snapshot = () =>
      Promise.all([
        database.query('SELECT * FROM ost_api_key ORDER BY id'),
        database.query('SELECT * FROM ost_help_topic ORDER BY topic_id'),
        database.query('SELECT * FROM ost_user ORDER BY id'),
        database.query('SELECT * FROM ost_user_email ORDER BY id'),
        database.query('SELECT * FROM ost_department ORDER BY id'),
        database.query('SELECT * FROM ost_sla ORDER BY id'),
        database.query('SELECT * FROM ost_faq_category ORDER BY category_id'),
      ]);
    const faqFile = join(mkdtempSync(join(tmpdir(), 'deskgate-faq-')), 'faq.json');
    writeFileSync(faqFile, JSON.stringify([{ name: 'Accounts', faqs: [{ question: 'Q?' }] }]));
    const userId = await database.insert(
      "INSERT INTO ost_user (org_id, default_email_id, status, name, created, updated) VALUES (0, 0, 0, 'Staff Managed', NOW(), NOW())",
    );
    const before = await snapshot();
    for (const [args, panel] of [
      [['keys', 'rotate', String(database.writeKey.id), '--grace', '1d'], /admin panel/],
      [['users', 'delete', String(userId), '--yes'], /staff panel/],
      [['users', 'delete', String(userId)], /staff panel/],
      [
        ['users', 'delete', String(userId), '--anonymise-tickets', '--yes'],
        /staff panel \(Users\), not by deskgate, unless deskgate's osTicket plugin erases them/,
      ],
      [['topics', 'edit', '11', '--sort', '1'], /admin panel/],
      [['topics', 'delete', '13'], /admin panel/],
      [['departments', 'add', '--name', 'Billing'], /admin panel/],
      [['sla', 'add', '--name', 'Bronze', '--grace-period', '12'], /admin panel/],
      [['faq', 'import', faqFile], /admin panel/],
    ] as [string[], RegExp][]) {
      for (const json of [[], ['--json']]) {
        const result = await runCli([...args, ...json], env);
        assertCleanFailure(result, 1, /in osTicket mode .* are managed in osTicket's/);
        assert.match(result.stderr, panel);
      }
    }
    assert.deepEqual(await snapshot(), before);
    const keys = await runCli(['keys', 'list', '--json'], env);
    assert.equal(keys.code, 0, keys.stderr);
    for (const key of JSON.parse(keys.stdout) as { expires: unknown; replacedBy: unknown }[])
      assert.deepEqual([key.expires, key.replacedBy], [null, null]);
  });
});
