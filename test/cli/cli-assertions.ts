import assert from 'node:assert/strict';
import { type CliResult, runCli } from '../helpers/cli.ts';

/** Runs a command that must succeed with `--json`: stdout is exactly one JSON document. */
export async function runCliJson<T = unknown>(
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<T> {
  const result = await runCli([...args, '--json'], env);
  assert.equal(result.code, 0, `deskgate ${args.join(' ')} failed:\n${result.stderr}`);
  assert.equal(result.stderr, '');
  // JSON.parse rejects anything after the document, so this also proves there is only one.
  return JSON.parse(result.stdout) as T;
}

/** Runs a command that must succeed without `--json`; returns its stdout. */
export async function runCliText(
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<string> {
  const result = await runCli(args, env);
  assert.equal(result.code, 0, `deskgate ${args.join(' ')} failed:\n${result.stderr}`);
  assert.equal(result.stderr, '');
  assert.notEqual(result.stdout, '');
  return result.stdout;
}

/**
 * An expected error: the given exit status, exactly one line on stderr naming the problem, no
 * stack trace, and nothing on stdout (a script reading `--json` output must not see half a result).
 */
export function assertCleanFailure(result: CliResult, code: 1 | 2, mentions?: RegExp): void {
  assert.equal(result.code, code, `expected exit ${code}, got ${result.code}:\n${result.stderr}`);
  assert.equal(result.stdout, '');
  const lines = result.stderr.split('\n').filter((line) => line !== '');
  assert.equal(lines.length, 1, `expected one line on stderr, got:\n${result.stderr}`);
  assertNoStackTrace(result.stderr);
  if (mentions) assert.match(lines[0] ?? '', mentions);
}

export function assertNoStackTrace(text: string): void {
  assert.doesNotMatch(text, /^\s+at .+(:\d+:\d+\)?|\(native\))$/m, `stack trace in:\n${text}`);
  assert.doesNotMatch(text, /unexpected error/);
}
