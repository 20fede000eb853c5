import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { runCli } from '../helpers/cli.ts';
import { ROOT } from '../helpers/paths.ts';

const SCRIPT = '/usr/bin/script';
const COUNT = 30_000;

describe('topics import progress', () => {
  let dir: string;
  let file: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'deskgate-progress-'));
    file = join(dir, 'topics.json');
    writeFileSync(
      file,
      JSON.stringify(Array.from({ length: COUNT }, (_, i) => ({ topic: `Progress ${i}` }))),
    );
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('on a terminal: a progress line on stderr, cleared at the end', {
    skip: process.platform === 'linux' ? false : 'util-linux script(1) gives the terminal',
  }, async () => {
    const database = `sqlite:${join(dir, 'tty.db')}`;
    assert.equal((await runCli(['migrate', '--database', database])).code, 0);
    // script(1) runs the command on a pseudo-terminal and copies what it wrote.
    const command = `${process.execPath} bin/deskgate.js topics import ${file} --database ${database}`;
    const { stdout } = await promisify(execFile)(SCRIPT, ['-qec', command, '/dev/null'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, TERM: 'dumb' },
    });
    assert.match(stdout, /topics import: [\d,]+ topics read/);
    assert.match(stdout, /checking and inserting 30,000 topics \(all or nothing\)/);
    // The line is cleared before the result.
    assert.ok(stdout.includes('\r\u001b[KImported 30000 topics.'), stdout.slice(-200));
  });

  test('off a terminal: nothing but the result, stderr empty', async () => {
    const database = `sqlite:${join(dir, 'pipe.db')}`;
    assert.equal((await runCli(['migrate', '--database', database])).code, 0);
    const result = await runCli(['topics', 'import', file, '--database', database]);
    assert.deepEqual(result, { code: 0, stdout: `Imported ${COUNT} topics.\n`, stderr: '' });
  });
});
