import assert from 'node:assert/strict';
import { globSync, readFileSync } from 'node:fs';
import { test } from 'node:test';

/** The one module that picks an operation's way by layout (src/operations/by-layout.ts). */
const CHOOSER = 'src/operations/by-layout.ts';

test('no operation reads the layout: what differs goes through byLayout, both ways given', () => {
  const readers = globSync('src/operations/**/*.ts')
    .filter((file) => !file.endsWith('.test.ts') && file !== CHOOSER)
    .filter((file) => /\bschema\s*[!=]==|\.schema\b/.test(readFileSync(file, 'utf8')));
  assert.deepEqual(readers, []);
});
