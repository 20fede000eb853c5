import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { builtCli } from '../helpers/built-cli.ts';
import { childEnv } from '../helpers/child-env.ts';
import { importTopicList, migrateDatabase } from '../helpers/cli-data.ts';
import { ROOT } from '../helpers/paths.ts';

interface PipeResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
}

/**
 * Runs `deskgate ARGS` with its stdout on a pipe whose reader goes away: at once, or after the
 * first chunk (as `| head -1` does).
 */
async function runIntoClosedPipe(
  args: string[],
  when: 'at once' | 'after a chunk',
): Promise<PipeResult> {
  const deskgate = await builtCli();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [deskgate, ...args], {
      cwd: ROOT,
      env: childEnv({ DESKGATE_LOG_FORMAT: 'json' }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    if (when === 'at once') child.stdout.destroy();
    else child.stdout.once('data', () => child.stdout.destroy());
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stderr }));
  });
}

describe('a CLI command whose stdout reader goes away', () => {
  let dir: string;
  let database: string;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'deskgate-pipe-'));
    database = `sqlite:${join(dir, 'deskgate.db')}`;
    await migrateDatabase(database);
    // Enough topics that the listing is many pipe buffers long: the writes outlive the reader.
    const topics = Array.from({ length: 3000 }, (_, i) => ({
      parentId: 0,
      isPublic: true,
      sort: 0,
      name: `Pipe topic ${i}`,
      notes: 'x'.repeat(100),
    }));
    assert.equal(await importTopicList(database, topics), 3000);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  // A short output is written whole before a reader could leave after its first chunk: only the
  // long listings are also tested as `| head -1` does it.
  const cases: { args: () => string[]; label: string; long?: true }[] = [
    { label: 'topics list', args: () => ['topics', 'list', '--database', database], long: true },
    {
      label: 'topics list --json',
      args: () => ['topics', 'list', '--json', '--database', database],
      long: true,
    },
    { label: 'keys list --json', args: () => ['keys', 'list', '--json', '--database', database] },
    { label: '--help', args: () => ['--help'] },
    { label: 'topics --help', args: () => ['topics', '--help'] },
  ];
  for (const { label, args, long } of cases) {
    for (const when of long ? (['at once', 'after a chunk'] as const) : (['at once'] as const)) {
      test(`${label}, reader gone ${when}: exit 0, nothing on stderr`, async () => {
        const result = await runIntoClosedPipe(args(), when);
        assert.deepEqual(result, { code: 0, signal: null, stderr: '' });
      });
    }
  }
});
