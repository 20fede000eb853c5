import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { buildOpenApiDocument } from './build-openapi-document.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

function run(
  args: readonly string[],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: ROOT,
      // No usage telemetry and no update check from a test run.
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

interface LintReport {
  totals: { errors: number; warnings: number; ignored: number };
  problems: { ruleId: string; message: string }[];
}

/** `--format json` prints one pretty-printed report per document, each right after the last. */
function parseReports(stdout: string): LintReport[] {
  return stdout.split(/(?<=^\})\n*(?=\{)/m).map((text) => JSON.parse(text) as LintReport);
}

// Redocly's recommended rules, with the exception redocly.yaml explains, on the document the
// server serves with and without a base path (one run for both: Redocly takes a second to start):
// no error, no warning, and no complaint about redocly.yaml itself.
test('Redocly lints the document clean, with and without a base path', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'deskgate-openapi-'));
  try {
    const files = ['', '/helpdesk'].map((basePath, i) => {
      const file = join(dir, `openapi-${i}.json`);
      writeFileSync(file, JSON.stringify(buildOpenApiDocument({ basePath, metrics: true })));
      return file;
    });
    const cli = fileURLToPath(import.meta.resolve('@redocly/cli/bin/cli.js'));
    const result = await run([
      cli,
      'lint',
      ...files,
      '--config',
      'redocly.yaml',
      '--format',
      'json',
    ]);
    const reports = parseReports(result.stdout);
    assert.equal(reports.length, files.length, result.stdout);
    for (const report of reports) {
      assert.deepEqual(
        report.problems.map((p) => `${p.ruleId}: ${p.message}`),
        [],
        result.stderr,
      );
      assert.deepEqual(report.totals, { errors: 0, warnings: 0, ignored: 0 });
    }
    assert.doesNotMatch(result.stderr, /config has \d+ (warning|error)/i, result.stderr);
    assert.equal(result.code, 0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
