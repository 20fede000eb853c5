import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { HttpMethod } from '../../src/operations/operation.ts';
import { OPERATIONS } from '../../src/operations/registry.ts';
import { ROOT } from '../helpers/paths.ts';

/** How the README's table writes an operation's methods. */
function methodsColumn(methods: readonly HttpMethod[]): string {
  return methods.map((method) => (method === 'GET' ? 'GET + body' : method)).join(' or ');
}

test("the README's operation table lists exactly the operations of the registry", () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const rows = [...readme.matchAll(/^\| `([a-z-]+\/[a-z-]+)` +\| ([^|]+?) +\| `([a-z:]+)` +\|/gm)];
  const table = rows.map(([, name, methods, scope]) => ({ name, methods, scope }));
  const registry = Object.values(OPERATIONS).map((operation) => ({
    name: operation.name,
    methods: methodsColumn(operation.methods),
    scope: operation.scope,
  }));
  assert.deepEqual(table, registry);
});
