import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { startServer } from '../helpers/server.ts';

/** Issue 32, item 6: the data files are the user list; nobody but their owner reads them. */
test('deskgate serve creates the SQLite file, its -wal and -shm 0600, whatever the umask', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'deskgate-modes-'));
  const path = join(dir, 'data', 'deskgate.db');
  // The most permissive umask, set in the server's shell: the test's process keeps its own.
  const server = await startServer({
    databaseUrl: `sqlite:${path}`,
    prelude: { script: 'umask 0' },
  });
  try {
    for (const file of [path, `${path}-wal`, `${path}-shm`]) {
      assert.equal((statSync(file).mode & 0o777).toString(8), '600', file);
    }
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
