import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { runCli } from '../helpers/cli.ts';
import { assertCleanFailure } from './cli-assertions.ts';

/** What bash offers after `deskgate WORDS…` with the script deskgate printed loaded. */
async function complete(script: string, words: string[]): Promise<string[]> {
  const line = ['deskgate', ...words].map((w) => `'${w}'`).join(' ');
  const { stdout } = await promisify(execFile)('bash', [
    '-c',
    `${script}\nCOMP_WORDS=(${line}); COMP_CWORD=${words.length}; _deskgate; printf '%s\\n' "\${COMPREPLY[@]}"`,
  ]);
  return stdout.split('\n').filter((w) => w !== '');
}

test('deskgate completion bash: bash completes commands, subcommands and options', {
  skip: existsSync('/bin/bash') ? false : 'no bash here',
}, async () => {
  const result = await runCli(['completion', 'bash']);
  assert.equal(result.code, 0, result.stderr);
  const script = result.stdout;
  assert.deepEqual(await complete(script, ['']), [
    'serve',
    'migrate',
    'keys',
    'topics',
    'users',
    'osticket',
    'agents',
    'tasks',
    'departments',
    'sla',
    'faq',
    'completion',
    '--help',
    '--version',
  ]);
  assert.deepEqual(await complete(script, ['k']), ['keys']);
  assert.deepEqual(await complete(script, ['topics', '']), [
    'add',
    'edit',
    'delete',
    'import',
    'list',
  ]);
  assert.deepEqual(await complete(script, ['users', '']), ['get', 'delete']);
  assert.deepEqual(await complete(script, ['keys', 'r']), ['revoke', 'rotate']);
  assert.deepEqual(await complete(script, ['agents', '']), ['add', 'list']);
  assert.deepEqual(await complete(script, ['departments', '']), ['add', 'list']);
  assert.deepEqual(await complete(script, ['sla', '']), ['add', 'list']);
  assert.deepEqual(await complete(script, ['faq', '']), ['import', 'list']);
  assert.deepEqual(await complete(script, ['sla', 'add', '--g']), ['--grace-period']);
  assert.deepEqual(await complete(script, ['keys', 'create', '--s']), ['--scope']);
  assert.deepEqual(await complete(script, ['keys', 'create', '--name', 'x', '--al']), [
    '--allow-ip',
  ]);
  assert.deepEqual(await complete(script, ['completion', '']), ['bash', 'zsh']);
});

test('deskgate completion zsh loads bash completion in zsh', {
  skip: existsSync('/usr/bin/zsh') || existsSync('/bin/zsh') ? false : 'zsh is not installed',
}, async () => {
  const result = await runCli(['completion', 'zsh']);
  assert.equal(result.code, 0, result.stderr);
  const { stdout } = await promisify(execFile)('zsh', [
    '-fc',
    `${result.stdout}\nprint -r -- \${_comps[deskgate]}`,
  ]);
  assert.equal(stdout.trim(), '_bash_complete -F _deskgate');
});

test('deskgate completion fish: a usage error naming the shells', async () => {
  assertCleanFailure(await runCli(['completion', 'fish']), 2, /bash or zsh/);
});
