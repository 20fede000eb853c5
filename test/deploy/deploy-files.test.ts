import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { parse } from 'yaml';
import { DATABASES, type TestDatabase } from '../helpers/databases.ts';
import { ROOT } from '../helpers/paths.ts';
import { type StartedServer, startServer } from '../helpers/server.ts';

const run = promisify(execFile);
const bin = (name: string) => join(ROOT, 'node_modules', '.bin', name);
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

/** Runs a linter; resolves to everything it printed (linters exit 0 on warnings). */
async function lint(file: string, args: readonly string[]): Promise<string> {
  const result = await run(file, args, { cwd: ROOT }).catch(
    (error: { stdout?: string; stderr?: string }) => error,
  );
  return `${result.stdout ?? ''}${result.stderr ?? ''}`.trim();
}

/** The Dockerfile's instructions of one kind in the runtime (last) stage, continuation lines joined. */
function runtimeInstructions(keyword: string): string[] {
  const text = read('Dockerfile').replace(/\\\n\s*/g, ' ');
  const stages = text.split(/^FROM /m);
  const runtime = stages.at(-1) ?? '';
  return runtime
    .split('\n')
    .filter((line) => line.startsWith(`${keyword} `))
    .map((line) => line.slice(keyword.length + 1).trim());
}

describe('Dockerfile', () => {
  test('passes dockerfile-utils lint without a problem', async () => {
    assert.equal(await lint(bin('dockerfile-utils'), ['lint', 'Dockerfile']), '');
  });

  test('runs as a non-root user, on 0.0.0.0, with its data and first key on the /data volume', () => {
    assert.deepEqual(runtimeInstructions('USER'), ['node']);
    assert.deepEqual(runtimeInstructions('VOLUME'), ['["/data"]']);
    const env = runtimeInstructions('ENV').join(' ');
    assert.match(env, /\bHOST=0\.0\.0\.0\b/);
    assert.match(env, /\bDESKGATE_DATABASE_URL=sqlite:\/data\/deskgate\.db\b/);
    assert.match(env, /\bDESKGATE_FIRST_KEY_FILE=\/data\/first-api-key\.txt\b/);
  });

  test('its image holds what deskgate reads at run time, and its build what the build runs', () => {
    // The /docs page's script and style (web/) and the switch-over guide `osticket check` reads
    // are found beside package.json; the build stage bundles the command with scripts/.
    const copied = runtimeInstructions('COPY').map((args) => args.split(/\s+/)[0]);
    for (const path of ['package.json', 'bin', 'web', 'docs/replacing-the-osticket-web-service.md'])
      assert.ok(copied.includes(path), `the runtime stage copies ${path}`);
    const build = read('Dockerfile').split(/^FROM /m)[1] ?? '';
    assert.match(build, /^COPY scripts \.\/scripts$/m);
    assert.match(build, /^RUN npm run build$/m);
  });

  describe('its healthcheck', () => {
    const sqlite = DATABASES.find((kind) => kind.name === 'sqlite');
    let database: TestDatabase;
    let server: StartedServer;
    let command: string[];

    before(async () => {
      assert.ok(sqlite);
      database = await sqlite.create();
      server = await startServer({ databaseUrl: database.url });
      const [healthcheck] = runtimeInstructions('HEALTHCHECK');
      const json = /CMD (\[.*\])$/.exec(healthcheck ?? '')?.[1];
      assert.ok(json, `no exec-form CMD in HEALTHCHECK ${healthcheck}`);
      command = JSON.parse(json) as string[];
    });
    after(async () => {
      await server.stop();
      await database.drop();
    });

    const check = (port: number) =>
      spawnSync(process.execPath, command.slice(1), {
        env: { PORT: String(port) },
        timeout: 10_000,
      }).status;

    test('is Node itself (no curl in Node images), and passes against a running server', () => {
      assert.equal(command[0], 'node');
      assert.equal(check(server.port), 0);
    });

    test('fails where nothing answers', async () => {
      const stopped = await startServer({ databaseUrl: database.url });
      await stopped.stop();
      assert.equal(check(stopped.port), 1);
    });
  });
});

/** The words between `node` and the script in a command that starts the service: node's own flags. */
function nodeFlags(words: readonly string[]): string[] {
  // `npm start` execs node, so that npm's SIGTERM reaches the server (test/server/npm-start-signal).
  const command = words[0] === 'exec' ? words.slice(1) : words;
  const script = command.findIndex((word) => word.endsWith('bin/deskgate.js'));
  assert.ok(script > 0 && /(^|\/)node$/.test(command[0] ?? ''), `not a node command: ${command}`);
  return command.slice(1, script);
}

describe('the commands that start the service', () => {
  const start = (JSON.parse(read('package.json')) as { scripts: { start: string } }).scripts.start;
  const startFlags = nodeFlags(start.split(/\s+/));

  test('give node a fixed young generation (docs/decisions/096-young-generation-size.md)', () => {
    assert.deepEqual(startFlags, ['--max-semi-space-size=16']);
  });

  test('give node the same flags in the container, the systemd unit and `npm start`', () => {
    const [cmd] = runtimeInstructions('CMD');
    assert.deepEqual(nodeFlags(JSON.parse(cmd ?? '[]') as string[]), startFlags);
    const execStart = read('deploy/deskgate.service')
      .split('\n')
      .find((line) => line.startsWith('ExecStart='));
    assert.deepEqual(
      nodeFlags(execStart?.slice('ExecStart='.length).split(/\s+/) ?? []),
      startFlags,
    );
  });
});

describe('compose.yaml', () => {
  test('passes dclint (the Compose schema and its best-practice rules) without a problem', async () => {
    const output = await lint(bin('dclint'), ['compose.yaml']);
    assert.equal(output, '');
  });

  test('runs deskgate on PostgreSQL and Redis, started only once they are healthy', () => {
    const compose = parse(read('compose.yaml')) as {
      services: Record<string, { environment?: Record<string, string>; depends_on?: object }>;
    };
    const deskgate = compose.services.deskgate;
    assert.ok(deskgate?.environment);
    assert.match(deskgate.environment.DESKGATE_DATABASE_URL ?? '', /^postgres:\/\/.*@postgres:/);
    assert.match(deskgate.environment.DESKGATE_REDIS_URL ?? '', /^redis:\/\/redis:/);
    assert.deepEqual(deskgate.depends_on, {
      postgres: { condition: 'service_healthy' },
      redis: { condition: 'service_healthy' },
    });
  });
});

const hasSystemdAnalyze = spawnSync('systemd-analyze', ['--version']).status === 0;

describe('deploy/deskgate.service', () => {
  test('passes systemd-analyze verify without a message', {
    skip: hasSystemdAnalyze ? false : 'systemd-analyze is not installed here',
  }, async () => {
    assert.equal(await lint('systemd-analyze', ['verify', 'deploy/deskgate.service']), '');
  });

  test('keeps the data in its state directory, never as root', () => {
    const unit = read('deploy/deskgate.service');
    for (const setting of [
      'DynamicUser=yes',
      'StateDirectory=deskgate',
      'NoNewPrivileges=yes',
      'ProtectSystem=strict',
      'Environment=DESKGATE_DATABASE_URL=sqlite:/var/lib/deskgate/deskgate.db',
      'Environment=DESKGATE_FIRST_KEY_FILE=/var/lib/deskgate/first-api-key.txt',
    ]) {
      assert.ok(unit.split('\n').includes(setting), `missing ${setting}`);
    }
    // V8 compiles code at run time: a unit that forbids writable executable memory kills Node.
    assert.doesNotMatch(unit, /^MemoryDenyWriteExecute=yes/m);
  });
});
