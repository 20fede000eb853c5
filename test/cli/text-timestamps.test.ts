import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeWithDatabase, SQLITE } from '../helpers/each-database.ts';
import { userBody } from '../helpers/http.ts';
import { useTestServer } from '../helpers/test-server.ts';
import { runCliJson, runCliText } from './cli-assertions.ts';

const ISO_UTC = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;

/** The `YYYY-MM-DD HH:MM:SS` (UTC) of --json as the text output writes it. */
const asText = (json: string) => `${json.replace(' ', 'T')}Z`;

// Issue 37, item 13: `users get` and `keys list` printed times without a zone.
describeWithDatabase('times in the commands’ text output', SQLITE, (database) => {
  const server = useTestServer({ database });
  const db = () => ['--database', database.url];

  test('users get: ISO 8601 in UTC (Z); --json keeps the interface’s shape', async () => {
    const reply = await server.request(userBody(), { method: 'POST' });
    const id = String(reply.body?.data);
    const [json, text] = await Promise.all([
      runCliJson<{ created: string; updated: string }>(['users', 'get', id, ...db()]),
      runCliText(['users', 'get', id, ...db()]),
    ]);
    assert.match(json.created, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    assert.match(text, new RegExp(`^created {10}${asText(json.created)}$`, 'm'));
    assert.match(text, new RegExp(`^updated {10}${asText(json.updated)}$`, 'm'));
  });

  test('keys list and keys create: created, last use and expiry in UTC (Z)', async () => {
    const created = await runCliText([
      'keys',
      'create',
      '--name',
      'dated',
      '--expires',
      '2099-01-31',
      ...db(),
    ]);
    assert.match(created, /; expires 2099-01-31T00:00:00Z\)\./);
    const keys = await runCliJson<{ name: string; created: string }[]>(['keys', 'list', ...db()]);
    const dated = keys.find((key) => key.name === 'dated');
    assert.ok(dated);
    const table = await runCliText(['keys', 'list', ...db()]);
    const [header, ...rows] = table.trimEnd().split('\n');
    const columns = (line: string) => line.split(/ {2,}/);
    const at = (name: string) => columns(header ?? '').indexOf(name);
    const row = columns(rows.find((line) => line.includes(' dated ')) ?? '');
    assert.equal(row[at('CREATED')], asText(dated.created));
    assert.equal(row[at('EXPIRES')], '2099-01-31T00:00:00Z');
    const used = columns(rows.find((line) => line.includes(' test-server ')) ?? '');
    assert.match(used[at('LAST USED')] ?? '', ISO_UTC);
  });
});
