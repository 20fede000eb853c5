import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { migrateDatabase, tableRows } from '../helpers/cli-data.ts';
import { describeEachDatabase, describeWithDatabase, SQLITE } from '../helpers/each-database.ts';
import { useTestServer } from '../helpers/test-server.ts';
import { assertCleanFailure, runCliJson, runCliText } from './cli-assertions.ts';

const dir = mkdtempSync(join(tmpdir(), 'deskgate-faq-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, value: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, typeof value === 'string' ? value : JSON.stringify(value));
  return path;
}

const TREE = [
  {
    name: 'Accounts',
    visibility: 1,
    faqs: [{ question: 'Reset password?', answer: 'Use the link.\nThen sign in.' }],
    children: [
      {
        name: 'Two-factor',
        visibility: 2,
        children: [{ name: 'Level three', faqs: [{ question: 'Deep?', published: 0 }] }],
      },
    ],
  },
];

describeEachDatabase('deskgate departments, sla and faq', (database) => {
  const server = useTestServer({ database });
  const db = () => ['--database', database.url];

  test('departments add stores what department/add would; list shows every department', async () => {
    const added = await runCliJson<{ id: number; name: string; public: boolean; status: string }>([
      'departments',
      'add',
      '--name',
      'Billing',
      '--private',
      '--signature',
      '<b>Bills</b>',
      ...db(),
    ]);
    assert.deepEqual([added.name, added.public, added.status], ['Billing', false, 'active']);
    const child = await runCliJson<{ id: number; parent: number }>([
      'departments',
      'add',
      '--name',
      'Invoices',
      '--parent',
      String(added.id),
      '--flags',
      '8',
      ...db(),
    ]);
    assert.equal(child.parent, added.id);
    const listed = await runCliJson<{ id: number; name: string; status: string }[]>([
      'departments',
      'list',
      ...db(),
    ]);
    assert.deepEqual(
      listed.map((d) => [d.name, d.status]),
      [
        ['Billing', 'active'],
        ['Invoices', 'archived'],
        ['Support', 'active'],
      ],
    );
    assert.match(await runCliText(['departments', 'list', ...db()]), /Billing/);
    const stored = await server.request(
      { query: 'department', condition: 'specific', parameters: { id: added.id } },
      { method: 'GET' },
    );
    assert.equal(stored.status, 204, 'an internal department stays hidden from clients');
    assertCleanFailure(
      await runCli(['departments', 'add', '--name', 'Billing', ...db()]),
      1,
      /already the name/,
    );
  });

  test('sla add escapes the name as osTicket stores it; list', async () => {
    const plan = await runCliJson<{ id: number; name: string; gracePeriod: number }>([
      'sla',
      'add',
      '--name',
      'Bronze & <b>12h</b>',
      '--grace-period',
      '12',
      ...db(),
    ]);
    assert.deepEqual([plan.name, plan.gracePeriod], ['Bronze &amp; &lt;b&gt;12h&lt;/b&gt;', 12]);
    const listed = await runCliJson<{ id: number }[]>(['sla', 'list', ...db()]);
    assert.ok(listed.some((p) => p.id === plan.id) && listed.some((p) => p.id === 1));
    assert.match(await runCliText(['sla', 'list', ...db()]), /12h/);
  });

  test('faq import: a tree of any depth, all or nothing; faq list and faq/all show it', async () => {
    const counts = await runCliJson<{ categories: number; faqs: number }>([
      'faq',
      'import',
      file('tree.json', TREE),
      ...db(),
    ]);
    assert.deepEqual(counts, { categories: 3, faqs: 2 });
    // The same question again: the whole second import is refused.
    const again = [{ name: 'Other', faqs: [{ question: 'New one?' }, { question: 'Deep?' }] }];
    assertCleanFailure(
      await runCli(['faq', 'import', file('again.json', again), ...db()]),
      1,
      /Deep\?/,
    );
    const listed = await runCliJson<{ name: string; faqs: { question: string }[] }[]>([
      'faq',
      'list',
      ...db(),
    ]);
    assert.deepEqual(
      listed.map((c) => [c.name, c.faqs.map((f) => f.question)]),
      [
        ['Accounts', ['Reset password?']],
        ['Two-factor', []],
        ['Level three', ['Deep?']],
      ],
    );
    assert.match(await runCliText(['faq', 'list', ...db()]), /Level three/);
    const all = await server.request({ query: 'faq', condition: 'all' }, { method: 'GET' });
    assert.equal(all.status, 200, all.text);
    assert.match(all.text, /Use the link/);
  });
});

// Options and files refused before the database is opened: the same on every database.
describeWithDatabase(
  'deskgate departments, sla and faq: argument and file checks',
  SQLITE,
  (database) => {
    const db = () => ['--database', database.url];

    before(async () => {
      await migrateDatabase(database.url);
    });

    test('departments add --name with < or >: one line, exit 2', async () => {
      assertCleanFailure(
        await runCli(['departments', 'add', '--name', '<i>x</i>', ...db()]),
        2,
        /--name must not contain < or >/,
      );
    });

    test('sla add checks the grace period: one line, exit 2', async () => {
      assertCleanFailure(
        await runCli(['sla', 'add', '--name', 'Long', '--grace-period', '8761', ...db()]),
        2,
        /^deskgate: --grace-period must be a whole number from 1 to 8760$/,
      );
    });

    test('faq import of a bad tree or of a file that is not JSON: exit 1, nothing imported', async () => {
      const bad = structuredClone(TREE);
      (bad[0]?.children[0]?.children[0]?.faqs[0] as { published: number }).published = 3;
      assertCleanFailure(
        await runCli(['faq', 'import', file('bad.json', bad), ...db()]),
        1,
        /children\.0\.children\.0\.faqs\.0\.published: must be an integer from 0 to 2.*nothing was imported/,
      );
      assertCleanFailure(
        await runCli(['faq', 'import', file('broken.json', '[{'), ...db()]),
        1,
        /not JSON/,
      );
      for (const table of ['faq_categories', 'faqs'] as const)
        assert.deepEqual(await tableRows(database.url, table), [], table);
    });
  },
);
