import assert from 'node:assert/strict';
import { relative } from 'node:path';
import { test } from 'node:test';
import { configTable } from '../../scripts/docs-tables/config-table.ts';
import {
  methodsText,
  operationTable,
  scopeTable,
} from '../../scripts/docs-tables/operation-tables.ts';
import { DOC_BLOCKS, generatedFiles, withBlock } from '../../scripts/generate-docs.ts';
import { SETTINGS } from '../../src/config.ts';
import { SCOPES } from '../../src/domain.ts';
import { OPERATIONS } from '../../src/operations/registry.ts';
import { ROOT } from '../helpers/paths.ts';

const rowsOf = (table: string): string[] => table.split('\n').slice(2);

test('the generated tables in README.md and docs/SECURITY.md are what npm run generate:docs writes', () => {
  for (const { path, current, generated } of generatedFiles()) {
    assert.equal(
      current,
      generated,
      `${relative(ROOT, path)} differs from the registry or the settings: run npm run generate:docs`,
    );
  }
});

test('the configuration table names every variable once, with its default as an operator writes it', () => {
  const rows = rowsOf(configTable());
  assert.equal(rows.length, Object.keys(SETTINGS).length);
  assert.ok(rows.includes(`| \`PORT\` | \`8080\` | ${SETTINGS.PORT.doc} |`));
  const row = (name: string) => rows.find((line) => line.startsWith(`| \`${name}\` |`));
  assert.match(row('DESKGATE_WEBHOOK_RETRY_DELAYS') ?? '', /\| `5s,5m,30m,2h,5h,10h,10h` \|/);
  assert.match(row('DESKGATE_WEBHOOK_DISABLE_AFTER') ?? '', /\| `5d` \|/);
  assert.match(row('DESKGATE_PATHS') ?? '', /\| `\/upload\/svc_wbs\/` \|/);
  assert.match(row('DESKGATE_OSTICKET_API_KEY') ?? '', /\| \(none\) \|/);
  assert.match(row('DESKGATE_CORS_ORIGINS') ?? '', /\| \(none\) \|/);
});

test('the operation table has one row per operation of the registry, in its order', () => {
  const rows = rowsOf(operationTable());
  const operations = Object.values(OPERATIONS);
  assert.deepEqual(
    rows.map((row) => row.split(' | ').slice(0, 3).join(' | ')),
    operations.map(
      (operation) =>
        `| \`${operation.name}\` | ${methodsText(operation.methods)} | ${[operation.scope, ...operation.otherScopes].map((scope) => `\`${scope}\``).join(' or ')}`,
    ),
  );
  const row = (name: string) => rows.find((line) => line.startsWith(`| \`${name}\` |`)) ?? '';
  assert.equal(
    row('user/add'),
    `| \`user/add\` | POST or PUT | \`write\` | ${OPERATIONS['user/add'].summary} |`,
  );
  assert.match(row('sla/delete'), /\| DELETE or POST \| `admin` \|/);
  assert.match(row('topics/specific'), /; `sort` `"id"` \(default\) or `"name"` \|$/);
  assert.match(row('tasks/all'), /; needs the notes grant \(`--notes`\) \|$/);
  assert.match(row('events/since'), /\| `tickets:read` or `users:read` \|/);
});

test('the scope table names every scope, and every operation under each scope that admits it', () => {
  const rows = rowsOf(scopeTable());
  assert.deepEqual(
    rows.map((row) => row.split(' | ')[0]),
    SCOPES.map((scope) => `| \`${scope}\``),
  );
  for (const operation of Object.values(OPERATIONS)) {
    for (const scope of [operation.scope, ...operation.otherScopes]) {
      const row = rows.find((line) => line.startsWith(`| \`${scope}\` |`)) ?? '';
      assert.ok(row.includes(`\`${operation.name}\``), `${operation.name} under ${scope}`);
    }
  }
  assert.match(rows.find((row) => row.startsWith('| `admin` |')) ?? '', /only when named/);
  assert.match(rows.find((row) => row.startsWith('| `read` |')) ?? '', /\| by default \|/);
  assert.match(
    rows.find((row) => row.startsWith('| `tickets:read` |')) ?? '',
    /`tasks\/specific` \(with the notes grant too\)/,
  );
});

test('a block edited by hand is told apart, and a file without its markers is refused', () => {
  for (const block of DOC_BLOCKS) {
    const generated = `before\n<!-- ${block.name}:begin -->\n${block.table()}\n<!-- ${block.name}:end -->\nafter`;
    assert.equal(withBlock(generated, block.name, block.table()), generated, block.name);
    const edited = generated.replace('| --- |', '| --- | --- |');
    assert.notEqual(withBlock(edited, block.name, block.table()), edited, block.name);
  }
  assert.throws(() => withBlock('no markers', 'operations', ''), /<!-- operations:begin -->/);
});
