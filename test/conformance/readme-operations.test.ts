import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { DEFAULT_SCOPES } from '../../src/domain.ts';
import { OPERATIONS } from '../../src/operations/registry.ts';
import { builtCli } from '../helpers/built-cli.ts';
import { describeWithDatabase, SQLITE } from '../helpers/each-database.ts';
import { ROOT } from '../helpers/paths.ts';
import { useTestServer } from '../helpers/test-server.ts';

/** One curl command of the README's "Use it" block, and the answer the line after it states. */
interface ReadmeExample {
  command: string;
  operation: string;
  /** `# → 200 {…}` right below the command; undefined when none is given (200 Success). */
  stated: string | undefined;
}

/** The README's "Use it" block, the one a newcomer pastes into a shell. */
function useItBlock(): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('\n## Use it\n'));
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1];
  assert.ok(block, 'no sh block under "## Use it"');
  return block;
}

/** Its curl commands: from `curl` to the line that closes the body's quote. */
function curlExamples(block: string): ReadmeExample[] {
  const lines = block.split('\n');
  const examples: ReadmeExample[] = [];
  for (let at = 0; at < lines.length; at++) {
    if (!lines[at]?.startsWith('curl ')) continue;
    let end = at;
    const quotes = (text: string) => text.split("'").length - 1;
    while (quotes(lines.slice(at, end + 1).join('\n')) % 2 === 1 || lines[end]?.endsWith('\\')) {
      end++;
    }
    const command = lines.slice(at, end + 1).join('\n');
    const body = JSON.parse(/-d '([\s\S]*)'/.exec(command)?.[1] ?? '') as {
      query: string;
      condition: string;
    };
    const next = lines[end + 1] ?? '';
    examples.push({
      command,
      operation: `${body.query}/${body.condition}`,
      stated: next.startsWith('# → ') ? next : undefined,
    });
    at = end;
  }
  return examples;
}

test("the README's examples cover every operation of the registry", () => {
  const shown = new Set(curlExamples(useItBlock()).map((example) => example.operation));
  assert.deepEqual([...shown].sort(), Object.keys(OPERATIONS).sort());
});

// Issue 37, item 9: every example runs as written, in order, on a fresh database, and answers
// what the line below it says (status, envelope status, an id answered as `"data":"N"`).
describeWithDatabase("the README's Use it block, pasted into a shell", SQLITE, (database) => {
  const server = useTestServer({
    database,
    env: { DESKGATE_WEBHOOK_ENCRYPTION_KEY: 'AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=' },
  });

  test('every command succeeds and every curl answers as the README says', async () => {
    const [
      { key },
      { key: adminKey },
      { key: notesKey },
      { key: agentKey },
      { key: webhookKey },
      deskgate,
    ] = await Promise.all([
      server.createKey({ scopes: [...DEFAULT_SCOPES] }),
      server.createKey({ scopes: ['admin'] }),
      server.createKey({ scopes: [...DEFAULT_SCOPES], notes: true }),
      // The key the README has the reader make for agent 1 (the first agent the block adds).
      server.createKey({ scopes: [...DEFAULT_SCOPES], agents: [1] }),
      // The README's: `keys create --name hooks --scope webhooks:manage,tickets:read,users:read --notes`.
      server.createKey({ scopes: ['webhooks:manage', 'tickets:read', 'users:read'], notes: true }),
      builtCli(),
    ]);
    const block = useItBlock();
    const examples = curlExamples(block);
    const script = [
      'set -e',
      // Each curl's body, then its status on a line of its own; the commands' output to stderr.
      `curl() { command curl -s -w '\\n@@ %{http_code}\\n' "$@"; }`,
      `npx() { shift; "${process.execPath}" "${deskgate}" "$@" >&2; }`,
      // `KEY=…`, `ADMIN_KEY=…`, `NOTES_KEY=…` and `AGENT_KEY=…` stand for the reader's keys.
      block.replace(/^[A-Z_]+=….*$/gm, ''),
    ]
      .join('\n')
      .replaceAll('http://127.0.0.1:8080', server.origin);
    const dir = mkdtempSync(join(tmpdir(), 'deskgate-readme-'));
    let stdout: string;
    try {
      // Not execFileSync: the server answers from this process's event loop.
      ({ stdout } = await promisify(execFile)('/bin/sh', ['-c', script], {
        cwd: dir,
        env: {
          PATH: process.env.PATH,
          KEY: key,
          ADMIN_KEY: adminKey,
          NOTES_KEY: notesKey,
          AGENT_KEY: agentKey,
          WEBHOOK_KEY: webhookKey,
          DESKGATE_DATABASE_URL: database.url,
        },
      }));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const answers = stdout.split(/^@@ (\d{3})$/m);
    assert.equal((answers.length - 1) / 2, examples.length, stdout);
    examples.forEach((example, n) => {
      const [text = '', status = ''] = [answers[2 * n], answers[2 * n + 1]];
      const [head, body = ''] = text.trim().startsWith('HTTP/')
        ? text.trim().split('\r\n\r\n')
        : ['', text.trim()];
      const label = `${example.command}\n→ ${status} ${text}`;
      const stated = example.stated ?? '# → 200 {"status":"Success"}';
      assert.equal(status, /^# → (\d{3})/.exec(stated)?.[1], label);
      const envelope = JSON.parse(body) as { status: string; data: unknown };
      assert.equal(envelope.status, /"status":"(\w+)"/.exec(stated)?.[1], label);
      const id = /"data":"(\d+)"/.exec(stated)?.[1];
      if (id !== undefined) assert.equal(envelope.data, id, label);
      const number = /X-Ticket-Number: (\d+)/.exec(stated)?.[1];
      if (number !== undefined) assert.match(head ?? '', new RegExp(`X-Ticket-Number: ${number}`));
    });
  });
});
