import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findCycles, readRuntimeImports, runtimeImportsOf } from '../scripts/find-import-cycles.ts';

test('src/ has no runtime import cycle (node scripts/find-import-cycles.ts lists them)', async () => {
  const cycles = findCycles(readRuntimeImports('src'));
  assert.deepEqual(cycles, []);
});

test('a type-only import or re-export and a lazy import() are no runtime edge', () => {
  const source = [
    "import type { A } from './a.ts';",
    "import { type B, c } from './b.ts';",
    "export type { D } from './d.ts';",
    "export { e } from '../e.ts';",
    "import { readFileSync } from 'node:fs';",
    "const f = () => import('./f.ts');",
  ].join('\n');
  assert.deepEqual(runtimeImportsOf(source, 'src/x/y.ts'), ['src/x/b.ts', 'src/e.ts']);
});

test('the cycle check finds every cycle, a module importing itself too', () => {
  const graph = new Map([
    ['a.ts', ['b.ts']],
    ['b.ts', ['c.ts']],
    ['c.ts', ['a.ts']],
    ['d.ts', ['d.ts']],
    ['e.ts', ['a.ts']],
  ]);
  assert.deepEqual(findCycles(graph), [['a.ts', 'b.ts', 'c.ts'], ['d.ts']]);
});
