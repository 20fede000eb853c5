import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DATABASES, SKIPPED_DATABASES } from './helpers/databases.ts';

// Makes the choice of databases visible in every run: each left-out database is a skipped test.
for (const { name, reason } of SKIPPED_DATABASES) {
  test(`the ${name} suites`, { skip: `skipped: ${reason}` }, () => {});
}
test(`database suites run on: ${DATABASES.map((d) => d.name).join(', ')}`, () => {
  const running = DATABASES.map((d) => d.name);
  assert.ok(running.includes('sqlite'), 'every run has SQLite');
  for (const { name } of SKIPPED_DATABASES) {
    assert.ok(!(running as string[]).includes(name), `${name} both runs and is skipped`);
  }
});
