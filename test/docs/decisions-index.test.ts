import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';

const folder = new URL('../../docs/decisions/', import.meta.url);

test('docs/decisions/README.md links every decision once, and nothing that is not there', () => {
  const files = readdirSync(folder)
    .filter((name) => /^\d{3}-.*\.md$/.test(name))
    .sort();
  const index = readFileSync(new URL('README.md', folder), 'utf8');
  const linked = [...index.matchAll(/\]\((\d{3}-[^)]+\.md)\)/g)].map((match) => match[1]).sort();
  assert.deepEqual(linked, files);
});
