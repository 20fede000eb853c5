import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { findUserById } from '../helpers/data-setup.ts';
import { describeWithDatabase, SQLITE } from '../helpers/each-database.ts';
import { ROOT } from '../helpers/paths.ts';
import { useTestServer } from '../helpers/test-server.ts';

/**
 * The README's user/add example, as a user pastes it into a POSIX shell (dash, as on Debian, where
 * uuidgen is not installed by default): the key line, then the curl command.
 */
function readmeUserAddExample(): { keyLine: string; curl: string } {
  const lines = readFileSync(join(ROOT, 'README.md'), 'utf8').split('\n');
  const keyAt = lines.findIndex((l) => l.startsWith('IDEMPOTENCY_KEY='));
  assert.ok(keyAt > 0, 'no IDEMPOTENCY_KEY= line in the README');
  const endAt = lines.findIndex((l, i) => i > keyAt && l.endsWith("}}'"));
  return {
    keyLine: lines[keyAt] ?? '',
    curl: lines.slice(keyAt + 1, endAt + 1).join('\n'),
  };
}

describeWithDatabase('the README’s user/add example', SQLITE, (database) => {
  const server = useTestServer({ database });

  test('the README’s idempotent user/add, pasted twice with its key, creates one user', async () => {
    const { keyLine, curl } = readmeUserAddExample();
    assert.doesNotMatch(`${keyLine}\n${curl}`, /uuidgen/);
    const command = curl.replaceAll('http://127.0.0.1:8080', server.origin);
    const script = `${keyLine}\necho "$IDEMPOTENCY_KEY"\n${command} -s\necho\n${command} -s\n`;
    // Not execFileSync: the server answers from this process's event loop.
    const { stdout } = await promisify(execFile)('/bin/sh', ['-c', script], {
      env: { PATH: process.env.PATH, KEY: server.key },
    });
    const [key, first, retry] = stdout.trim().split('\n');
    assert.match(key ?? '', /^[0-9a-f]{32}$/);
    const created = JSON.parse(first ?? '') as { status: string; data: string };
    assert.equal(created.status, 'Success', first);
    const replayed = JSON.parse(retry ?? '') as { status: string; data: string };
    assert.deepEqual([replayed.status, replayed.data], ['Success', created.data]);
    assert.equal((await findUserById(server, Number(created.data)))?.email, 'ann@example.com');
  });
});

test('no example in the README or docs/ needs uuidgen, which Debian and Ubuntu do not install', () => {
  const pages = [
    join(ROOT, 'README.md'),
    ...readdirSync(join(ROOT, 'docs'))
      .filter((name) => name.endsWith('.md'))
      .map((name) => join(ROOT, 'docs', name)),
  ];
  for (const page of pages) assert.doesNotMatch(readFileSync(page, 'utf8'), /uuidgen/, page);
});
