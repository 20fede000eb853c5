import assert from 'node:assert/strict';
import { test } from 'node:test';
import { COMMANDS } from './index.ts';

test('each line of the command table loads the command its words name', async () => {
  for (const entry of COMMANDS) assert.equal((await entry.load()).name, entry.name);
  assert.equal(new Set(COMMANDS.map((entry) => entry.name)).size, COMMANDS.length);
});
