import { test } from 'node:test';
import { DATABASES, SKIPPED_DATABASES } from './helpers/databases.ts';

// Makes the choice of databases visible in every run: each left-out database is a skipped test.
for (const { name, reason } of SKIPPED_DATABASES) {
  test(`the ${name} suites`, { skip: `skipped: ${reason}` }, () => {});
}
test(`database suites run on: ${DATABASES.map((d) => d.name).join(', ')}`, () => {});
