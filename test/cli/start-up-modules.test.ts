import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { runCli } from '../helpers/cli.ts';
import { ROOT } from '../helpers/paths.ts';

const dir = mkdtempSync(join(tmpdir(), 'deskgate-start-up-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const REPORT_LOADED = join(ROOT, 'test', 'support', 'report-loaded-modules.ts');

// An ES import of node:http reads its WebSocket getters, which load undici: 60 ms of CPU for every
// command that reaches the HTTP code (scripts/bundle-cli.ts, nodejs/node#59686).
test('migrate, whose bundle reaches the HTTP code, starts without loading undici', async () => {
  const result = await runCli(['migrate', '--database', `sqlite:${join(dir, 'deskgate.db')}`], {
    NODE_OPTIONS: `--import=${pathToFileURL(REPORT_LOADED).href}`,
  });
  assert.equal(result.code, 0, result.stderr);
  const loaded = JSON.parse(result.stderr.slice(result.stderr.indexOf('loaded:') + 7)) as string[];
  assert.ok(loaded.includes('NativeModule http'), 'the command loads node:http');
  assert.deepEqual(
    loaded.filter((name) => name.includes('undici')),
    [],
  );
});
