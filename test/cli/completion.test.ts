import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { runCli } from '../helpers/cli.ts';
import { ROOT } from '../helpers/paths.ts';
import { assertCleanFailure } from './cli-assertions.ts';

/** What bash offers after `COMMAND WORDS…` (`deskgate`, `npx deskgate`) with the script deskgate printed loaded. */
async function complete(
  script: string,
  words: string[],
  command = ['deskgate'],
): Promise<string[]> {
  const all = [...command, ...words];
  const line = all.map((w) => `'${w}'`).join(' ');
  const { stdout } = await promisify(execFile)('bash', [
    '-c',
    `${script}\nCOMP_WORDS=(${line}); COMP_CWORD=${all.length - 1}; _deskgate; printf '%s\\n' "\${COMPREPLY[@]}"`,
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
    'statuses',
    'priorities',
    'teams',
    'departments',
    'sla',
    'faq',
    'webhooks',
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

// Issue 37, item 10: the README runs `npx deskgate …`, which the script did not complete.
test('the bash script completes npx deskgate … as deskgate …, and leaves other npx packages alone', {
  skip: existsSync('/bin/bash') ? false : 'no bash here',
}, async () => {
  const { stdout: script } = await runCli(['completion', 'bash']);
  const npx = ['npx', 'deskgate'];
  assert.deepEqual(await complete(script, ['k'], npx), ['keys']);
  assert.deepEqual(await complete(script, ['keys', 'r'], npx), ['revoke', 'rotate']);
  assert.deepEqual(await complete(script, ['sla', 'add', '--g'], npx), ['--grace-period']);
  assert.deepEqual(await complete(script, ['de'], ['npx']), ['deskgate']);
  assert.deepEqual(await complete(script, ['--'], ['npx', 'prettier']), []);
  const registered = await promisify(execFile)('bash', [
    '-c',
    `${script}\ncomplete -p npx deskgate`,
  ]);
  assert.equal(
    registered.stdout,
    'complete -o default -F _deskgate npx\ncomplete -o default -F _deskgate deskgate\n',
  );
});

test('deskgate completion zsh loads bash completion in zsh', {
  skip: existsSync('/usr/bin/zsh') || existsSync('/bin/zsh') ? false : 'zsh is not installed',
}, async () => {
  const result = await runCli(['completion', 'zsh']);
  assert.equal(result.code, 0, result.stderr);
  const { stdout } = await promisify(execFile)('zsh', [
    '-fc',
    `${result.stdout}\nprint -r -- \${_comps[deskgate]} \${_comps[npx]}`,
  ]);
  assert.equal(stdout.trim(), '_bash_complete -F _deskgate _bash_complete -F _deskgate');
});

/** The README's set-up block: the line that writes the script, and the line for ~/.bashrc. */
function readmeSetUp(): { write: string; bashrc: string } {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const block = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)]
    .map((match) => match[1] ?? '')
    .find((text) => text.includes('completion bash >'));
  assert.ok(block, 'the README has no completion set-up block');
  const [write = '', bashrc = ''] = block.trim().split('\n');
  return { write, bashrc };
}

// Issue 37, item 10: the README's `eval "$(npx deskgate completion bash)"` in ~/.bashrc asked the
// npm registry for a package named deskgate at every shell start outside the project.
test("the README's completion set-up: a new shell outside the project completes npx deskgate and asks no registry", {
  skip: existsSync('/bin/bash') ? false : 'no bash here',
}, async (t) => {
  const { write, bashrc } = readmeSetUp();
  const home = mkdtempSync(join(tmpdir(), 'deskgate-home-'));
  const elsewhere = mkdtempSync(join(tmpdir(), 'deskgate-elsewhere-'));
  const asked: string[] = [];
  const registry = createServer((request, response) => {
    asked.push(`${request.method} ${request.url}`);
    response.writeHead(404).end();
  });
  registry.listen(0, '127.0.0.1');
  await once(registry, 'listening');
  t.after(() => {
    registry.close();
    rmSync(home, { recursive: true, force: true });
    rmSync(elsewhere, { recursive: true, force: true });
  });
  // In the project, once: `npx deskgate completion bash > FILE` (the command npx runs there).
  const written = /^npx deskgate completion bash > ~\/(\S+)$/.exec(write);
  assert.ok(written?.[1], write);
  const script = await runCli(['completion', 'bash']);
  writeFileSync(join(home, written[1]), script.stdout);
  const env = {
    HOME: home,
    PATH: `${dirname(process.execPath)}:/usr/bin:/bin`,
    npm_config_registry: `http://127.0.0.1:${(registry.address() as AddressInfo).port}/`,
  };
  await promisify(execFile)('bash', ['--noprofile', '--norc', '-c', bashrc], { env });
  // A new interactive shell, elsewhere: it reads ~/.bashrc.
  const shell = await promisify(execFile)('bash', ['-i', '-c', 'complete -p npx deskgate'], {
    cwd: elsewhere,
    env,
  });
  assert.equal(
    shell.stdout,
    'complete -o default -F _deskgate npx\ncomplete -o default -F _deskgate deskgate\n',
  );
  assert.deepEqual(asked, []);
});

test('deskgate completion fish: a usage error naming the shells', async () => {
  assertCleanFailure(await runCli(['completion', 'fish']), 2, /bash or zsh/);
});
