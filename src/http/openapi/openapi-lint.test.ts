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

// Redocly's recommended rules, with the exception redocly.yaml explains, on the document the
// server serves (with and without a base path): no error and no warning.
for (const basePath of ['', '/helpdesk']) {
  test(`Redocly lints the document clean (base path "${basePath}")`, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'deskgate-openapi-'));
    try {
      const file = join(dir, 'openapi.json');
      writeFileSync(file, JSON.stringify(buildOpenApiDocument({ basePath, metrics: true })));
      const cli = fileURLToPath(import.meta.resolve('@redocly/cli/bin/cli.js'));
      const result = await run([cli, 'lint', file, '--config', 'redocly.yaml', '--format', 'json']);
      const report = JSON.parse(result.stdout) as {
        totals: { errors: number; warnings: number; ignored: number };
        problems: { ruleId: string; message: string }[];
      };
      assert.deepEqual(
        report.problems.map((p) => `${p.ruleId}: ${p.message}`),
        [],
        result.stderr,
      );
      assert.deepEqual(report.totals, { errors: 0, warnings: 0, ignored: 0 });
      assert.equal(result.code, 0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}
