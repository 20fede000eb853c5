import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { accessSync, constants, readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { describe, test } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { ROOT } from '../helpers/paths.ts';
import { assertNoStackTrace } from './cli-assertions.ts';

const version = (
  JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }
).version;

describe('deskgate --help and --version', () => {
  test('--version prints the package version and exits 0', async () => {
    const results = await Promise.all(['--version', '-V', '-v'].map((flag) => runCli([flag])));
    for (const result of results) {
      assert.equal(result.code, 0, result.stderr);
      assert.equal(result.stdout, `${version}\n`);
      assert.equal(result.stderr, '');
    }
  });

  const groups = {
    keys: ['keys create', 'keys list', 'keys revoke'],
    topics: ['topics add', 'topics import', 'topics list'],
    users: ['users get'],
    // A group inside a group.
    'osticket keys': ['osticket keys grant', 'osticket keys list', 'osticket keys revoke'],
  };

  for (const [group, commands] of Object.entries(groups)) {
    test(`deskgate ${group} --help lists the ${group} commands and exits 0`, async () => {
      const words = group.split(' ');
      const results = await Promise.all(
        [
          [...words, '--help'],
          [...words, '-h'],
          ['help', ...words],
        ].map((args) => runCli(args)),
      );
      for (const result of results) {
        assert.equal(result.code, 0, result.stderr);
        assert.equal(result.stderr, '');
        for (const command of commands) assert.match(result.stdout, new RegExp(command));
        assert.doesNotMatch(result.stdout, /deskgate serve/, 'only this group');
        if (group === 'osticket keys')
          assert.doesNotMatch(result.stdout, /osticket check/, 'only this group');
      }
    });
  }

  test('deskgate osticket keys alone says it needs a command (exit 2)', async () => {
    const result = await runCli(['osticket', 'keys']);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /osticket keys needs a command; run deskgate osticket keys --help/);
  });

  test('deskgate --help mentions --version and the group help', async () => {
    const result = await runCli(['--help']);
    assert.equal(result.code, 0);
    assert.match(result.stdout, /--version/);
    assert.match(result.stdout, /Only serve and migrate create or change a database schema/);
  });
});

/** A Node.js older than 24 on this machine's PATH (the system's own), if there is one. */
function findOlderNode(): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter).concat('/usr/bin')) {
    const candidate = join(dir, 'node');
    try {
      accessSync(candidate, constants.X_OK);
      const major = Number(
        execFileSync(candidate, ['-p', 'process.versions.node.split(".")[0]']).toString(),
      );
      if (major < 24) return candidate;
    } catch {}
  }
  return undefined;
}

const olderNode = findOlderNode();

describe('deskgate on a Node.js older than 24', {
  skip: olderNode ? false : 'no Node.js older than 24 on this machine',
}, () => {
  test('says in one line what it needs and how to get it, whatever the command', () => {
    for (const args of [['serve'], ['keys', 'list'], ['--version']]) {
      const result = spawnSync(olderNode ?? 'node', ['bin/deskgate.js', ...args], {
        cwd: ROOT,
        encoding: 'utf8',
      });
      assert.equal(result.status, 1);
      assert.equal(result.stdout, '');
      const lines = result.stderr.split('\n').filter(Boolean);
      assert.equal(lines.length, 1, result.stderr);
      assert.match(lines[0] ?? '', /needs Node\.js 24 or newer, this is v\d+.*nodejs\.org/);
      assertNoStackTrace(result.stderr);
    }
  });
});
