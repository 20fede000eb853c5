import assert from 'node:assert/strict';
import { globSync, readFileSync } from 'node:fs';
import { test } from 'node:test';

/**
 * A read of the layout: `config.schema`, a comparison with `schema`, or with 'osticket'. A zod
 * view's `.schema` is not one.
 */
const LAYOUT_READ =
  /\bconfig\??\.schema\b|\bschema\s*[!=]==|[!=]==\s*['"]osticket['"]|['"]osticket['"]\s*[!=]==|\{[^}]*\bschema\b[^}]*\}\s*=\s*config\b/;

/** The one module that picks an operation's way by layout (src/operations/by-layout.ts). */
const CHOOSER = 'src/operations/by-layout.ts';

test('no operation reads the layout: what differs goes through byLayout, both ways given', () => {
  const readers = globSync('src/operations/**/*.ts')
    .filter((file) => !file.endsWith('.test.ts') && file !== CHOOSER)
    .filter((file) => LAYOUT_READ.test(readFileSync(file, 'utf8')));
  assert.deepEqual(readers, []);
});
