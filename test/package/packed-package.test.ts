import assert from 'node:assert/strict';
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { CONSUMER_TSCONFIG, NPM_ENV } from '../helpers/package-project.ts';
import { ROOT } from '../helpers/paths.ts';

const run = promisify(execFile);

const ENV = NPM_ENV;

const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  version: string;
};

const CONSUMER_TS = `import { DeskgateClient, DeskgateError, type NewUserFields, type Topic } from 'deskgate/client';

const client = new DeskgateClient({ baseUrl: 'http://127.0.0.1:8080', apiKey: 'K', retries: 1 });
const user: NewUserFields = {
  name: 'Ann', email: 'ann@example.com', password: 's3cret', timezone: 'UTC',
  phone: 351210000000, org_id: 0, default_email_id: 0, status: '1',
};
async function main(): Promise<void> {
  const topic: Topic | null = await client.getTopic(1);
  const id: string = await client.addUser(user, { idempotencyKey: 'k' });
  console.log(topic?.topic.toUpperCase(), id);
}
main().catch((error: unknown) => {
  if (error instanceof DeskgateError) console.log(error.code, error.status, error.errors.length);
});
client.close();
`;

const CLIENT_MJS = `import { DeskgateClient } from 'deskgate/client';
const client = new DeskgateClient({ baseUrl: process.env.BASE_URL, apiKey: process.env.API_KEY });
const topic = await client.getTopic(1);
client.close();
console.log(JSON.stringify(topic));
`;

describe('the packed package, installed into an empty project', () => {
  let dir: string;
  let project: string;
  let server: ChildProcess | undefined;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'deskgate-package-'));
    const packed = await run('npm', ['pack', '--silent', '--pack-destination', dir], {
      cwd: ROOT,
      env: ENV,
    });
    const tarball = join(dir, packed.stdout.trim().split('\n').at(-1) ?? '');
    project = join(dir, 'project');
    mkdirSync(project);
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({ name: 'consumer', private: true, type: 'module' }),
    );
    // Every dependency is in npm's cache after `npm ci`; the registry is asked only when not.
    await run('npm', ['install', '--prefer-offline', '--no-package-lock', tarball], {
      cwd: project,
      env: ENV,
    });
  });
  after(async () => {
    if (server && server.exitCode === null) {
      server.kill('SIGTERM');
      await once(server, 'exit');
    }
    rmSync(dir, { recursive: true, force: true });
  });

  test('holds the compiled code and no TypeScript sources', () => {
    const installed = join(project, 'node_modules', 'deskgate');
    const top = readdirSync(installed).sort();
    assert.deepEqual(top, [
      'CHANGELOG.md',
      'LICENSE',
      'README.md',
      'bench',
      'bin',
      'dist',
      'docs',
      'osticket-plugin',
      'package.json',
      'web',
    ]);
    const files = readdirSync(join(installed, 'dist'), { recursive: true }).map(String);
    assert.ok(files.includes(join('bin', 'main.js')), 'the bundled command');
    assert.ok(files.includes(join('client', 'index.d.ts')));
    assert.ok(!files.some((f) => f.endsWith('.ts') && !f.endsWith('.d.ts')), 'a .ts source');
    assert.ok(!files.some((f) => f.includes('.test.')), 'a test file');
  });

  test('every relative link of its README and docs leads to a file the package holds', () => {
    const installed = join(project, 'node_modules', 'deskgate');
    const pages = [
      'README.md',
      ...readdirSync(join(installed, 'docs'), { recursive: true })
        .map(String)
        .filter((f) => f.endsWith('.md'))
        .map((f) => join('docs', f)),
    ];
    const broken: string[] = [];
    for (const page of pages) {
      const text = readFileSync(join(installed, page), 'utf8');
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (!target || /^[a-z]+:/.test(target) || target.startsWith('#')) continue;
        const path = target.split('#')[0] ?? '';
        if (!existsSync(join(installed, dirname(page), path))) broken.push(`${page} → ${target}`);
      }
    }
    assert.deepEqual(broken, []);
  });

  test('the README installs it from the tarball `npm pack` makes, not from the registry', () => {
    const root = join(project, 'node_modules', 'deskgate');
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    assert.match(readme, /npm install \.\/deskgate-[0-9.]+\.tgz/);
    const pages = ['README.md', ...readdirSync(join(root, 'docs')).map((name) => `docs/${name}`)];
    for (const page of pages.filter((name) => name.endsWith('.md')))
      assert.doesNotMatch(readFileSync(join(root, page), 'utf8'), /npm install deskgate\b/, page);
  });

  test('deskgate/client loads nothing but Node built-ins and its own files', () => {
    const clientDir = join(project, 'node_modules', 'deskgate', 'dist', 'client');
    for (const file of readdirSync(clientDir)) {
      const text = readFileSync(join(clientDir, file), 'utf8');
      for (const [, specifier] of text.matchAll(/^(?:import|export)\b[^;]*?\bfrom\s+'([^']+)'/gm)) {
        assert.ok(
          specifier?.startsWith('node:') || specifier?.startsWith('./'),
          `${file} imports ${specifier}`,
        );
      }
    }
  });

  test('npx deskgate --version prints the version', async () => {
    const { stdout } = await run('npx', ['--no-install', 'deskgate', '--version'], {
      cwd: project,
      env: ENV,
    });
    assert.equal(stdout, `${version}\n`);
  });

  test('the bin migrates, creates a key and serves; a .mjs calls it through deskgate/client', async () => {
    const bin = join(project, 'node_modules', '.bin', 'deskgate');
    const database = `sqlite:${join(dir, 'data', 'deskgate.db')}`;
    const env = { ...ENV, DESKGATE_DATABASE_URL: database, DESKGATE_LOG_FORMAT: 'json' };
    await run(bin, ['migrate'], { cwd: project, env });
    const { stdout } = await run(bin, ['keys', 'create', '--name', 'packed', '--json'], {
      cwd: project,
      env,
    });
    const { key } = JSON.parse(stdout) as { key: string };
    assert.match(key, /^[0-9A-F]{32}$/);

    server = spawn(bin, ['serve'], {
      cwd: project,
      env: { ...env, HOST: '127.0.0.1', PORT: '0' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const lines = createInterface({ input: server.stdout as NodeJS.ReadableStream });
    let port: number | undefined;
    for await (const line of lines) {
      const record = JSON.parse(line) as { msg?: string; port?: number };
      if (record.msg === 'deskgate listening') {
        port = record.port;
        break;
      }
    }
    assert.ok(port, 'the installed server never listened');

    writeFileSync(join(project, 'use-client.mjs'), CLIENT_MJS);
    const called = await run(process.execPath, ['use-client.mjs'], {
      cwd: project,
      env: { ...ENV, BASE_URL: `http://127.0.0.1:${port}`, API_KEY: key },
    });
    const topic = JSON.parse(called.stdout) as { id: string; topic: string };
    assert.equal(topic.id, '1');
    assert.equal(topic.topic, 'General Inquiry');
  });

  test('its types satisfy a strict nodenext TypeScript project that checks libraries', async () => {
    // The last line proves the types are really there: were they `any`, the expected error would
    // be missing and tsc would fail on the unused directive.
    const misuse = `// @ts-expect-error a topic's name is a string\nconst wrong: number = (null as unknown as Topic).topic;\nconsole.log(wrong);\n`;
    writeFileSync(join(project, 'consumer.mts'), `${CONSUMER_TS}${misuse}`);
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify(CONSUMER_TSCONFIG));
    const tsc = join(ROOT, 'node_modules', '.bin', 'tsc');
    const checked = await run(tsc, ['-p', 'tsconfig.json'], { cwd: project, env: ENV }).catch(
      (error: { stdout?: string; code?: number }) => error,
    );
    assert.equal((checked as { code?: number }).code ?? 0, 0, checked.stdout);
  });
});
