import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { configTable, README_FILE, withConfigTable } from '../../scripts/generate-readme-config.ts';
import { SETTINGS } from '../../src/config.ts';

test("the README's configuration table is what npm run generate:readme-config writes", () => {
  const readme = readFileSync(README_FILE, 'utf8');
  assert.equal(
    readme,
    withConfigTable(readme),
    'README.md differs from the settings (src/config.ts): run npm run generate:readme-config',
  );
});

test('the table names every variable once, with its default as an operator writes it', () => {
  const rows = configTable().split('\n').slice(2);
  assert.equal(rows.length, Object.keys(SETTINGS).length);
  assert.ok(rows.includes(`| \`PORT\` | \`8080\` | ${SETTINGS.PORT.doc} |`));
  const row = (name: string) => rows.find((line) => line.startsWith(`| \`${name}\` |`));
  assert.match(row('DESKGATE_WEBHOOK_RETRY_DELAYS') ?? '', /\| `5s,5m,30m,2h,5h,10h,10h` \|/);
  assert.match(row('DESKGATE_WEBHOOK_DISABLE_AFTER') ?? '', /\| `5d` \|/);
  assert.match(row('DESKGATE_PATHS') ?? '', /\| `\/upload\/svc_wbs\/` \|/);
  assert.match(row('DESKGATE_OSTICKET_API_KEY') ?? '', /\| \(none\) \|/);
  assert.match(row('DESKGATE_CORS_ORIGINS') ?? '', /\| \(none\) \|/);
});

test('a README whose table was edited by hand is told apart', () => {
  const readme = readFileSync(README_FILE, 'utf8');
  const edited = readme.replace('| `PORT` | `8080` |', '| `PORT` | `8081` |');
  assert.notEqual(edited, readme);
  assert.notEqual(withConfigTable(edited), edited);
});
