import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import { childEnv } from '../helpers/child-env.ts';
import { ROOT } from '../helpers/paths.ts';

const run = promisify(execFile);
const BIN = join(ROOT, 'bin', 'deskgate.js');

// Decision 121: deskgate does not read a .env file by itself; Node's --env-file does, on request.
let dir: string;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'deskgate-env-file-'));
  writeFileSync(
    join(dir, '.env'),
    `DESKGATE_DATABASE_URL=sqlite:${join(dir, 'from-env-file.db')}\n`,
  );
});
after(() => rmSync(dir, { recursive: true, force: true }));

test('a .env in the working directory is not read: the default database is used', async () => {
  await run(process.execPath, [BIN, 'migrate'], { cwd: dir, env: childEnv() });
  assert.equal(existsSync(join(dir, 'data', 'deskgate.db')), true);
  assert.equal(existsSync(join(dir, 'from-env-file.db')), false);
});

test('node --env-file=.env, as the docs give it, applies the file', async () => {
  await run(process.execPath, ['--env-file=.env', BIN, 'migrate'], { cwd: dir, env: childEnv() });
  assert.equal(existsSync(join(dir, 'from-env-file.db')), true);
});
