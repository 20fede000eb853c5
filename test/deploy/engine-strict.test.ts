import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { ROOT } from '../helpers/paths.ts';

/** A Node older than 24 on this machine with its own npm (Debian's /usr/bin/node is 20), if any. */
function olderNode(): { node: string; npm: string; version: string } | undefined {
  for (const node of ['/usr/bin/node', '/usr/local/bin/node']) {
    if (!existsSync(node)) continue;
    const version = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
    const npm = join(dirname(node), '..', 'lib', 'node_modules', 'npm', 'bin', 'npm-cli.js');
    if (Number(version.slice(1).split('.')[0]) < 24 && existsSync(npm)) {
      return { node, npm, version };
    }
  }
  return undefined;
}

const older = olderNode();

// Issue 37, item 11: under Node 20, `npm ci` installed everything with twenty lines of engine
// warnings, and only `npm start` refused. The committed .npmrc (engine-strict) refuses at once.
test('npm ci in a checkout refuses a Node older than 24 before installing anything', {
  skip: older ? false : 'no Node older than 24 with its npm on this machine',
}, () => {
  const { node, npm, version } = older as NonNullable<typeof older>;
  const dir = mkdtempSync(join(tmpdir(), 'deskgate-engine-'));
  try {
    for (const file of ['package.json', 'package-lock.json', '.npmrc']) {
      if (existsSync(join(ROOT, file))) copyFileSync(join(ROOT, file), join(dir, file));
    }
    // --dry-run: npm checks the engines as for the real install, and downloads nothing.
    const result = spawnSync(node, [npm, 'ci', '--dry-run', '--no-audit', '--no-fund'], {
      cwd: dir,
      encoding: 'utf8',
      env: { PATH: `${dirname(node)}:/usr/bin:/bin`, HOME: process.env.HOME },
    });
    assert.notEqual(result.status, 0, result.stderr);
    assert.match(result.stderr, /npm error code EBADENGINE/);
    assert.match(result.stderr, /Required: \{"node":">=24"\}/);
    assert.ok(result.stderr.includes(version), result.stderr);
    assert.doesNotMatch(result.stderr, /npm warn EBADENGINE/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
