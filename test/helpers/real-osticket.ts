import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import {
  chmodSync,
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';
import { type Connection, createConnection, type ResultSetHeader } from 'mysql2/promise';
import { OSTICKET_DIR } from '../osticket/osticket-database.ts';
import { MYSQL_ADMIN_URL } from './databases.ts';
import { OsticketBrowser } from './osticket-browser.ts';
import { grantOsticketKey } from './osticket-key-grant.ts';
import { MACHINE_TMPDIR } from './paths.ts';
import { freePort } from './private-mariadb.ts';
import { isAlive } from './processes.ts';

const run = promisify(execFile);

const TARBALL = join(OSTICKET_DIR, 'osticket-v1.18.1-source.tar.gz');
const PHP = process.env.DESKGATE_TEST_PHP ?? '/usr/bin/php';
const PHP_FPM = process.env.DESKGATE_TEST_PHP_FPM ?? '/usr/sbin/php-fpm8.2';
const FPM_SOCKET = process.env.DESKGATE_TEST_PHP_FPM_SOCKET ?? '/run/php/php8.2-fpm.sock';
const NGINX = process.env.DESKGATE_TEST_NGINX ?? '/usr/sbin/nginx';
const DB_PREFIX = 'osticket_real_';

/** Why the real osTicket cannot run here, or false when it can. */
export const REAL_OSTICKET_SKIP: string | false = !MYSQL_ADMIN_URL
  ? 'skipped: DESKGATE_TEST_MYSQL_URL is not set (the real osTicket needs MariaDB/MySQL)'
  : !existsSync(TARBALL)
    ? `skipped: osTicket's source tarball is not at ${TARBALL} (check out ../shared beside the repository, or set DESKGATE_TEST_OSTICKET_DIR)`
    : ([PHP, PHP_FPM, NGINX].find((binary) => !existsSync(binary)) ?? false)
      ? `skipped: the real osTicket needs ${[PHP, PHP_FPM, NGINX].filter((binary) => !existsSync(binary)).join(', ')} (apt-get install php-fpm php-mysql php-gd php-imap php-intl php-mbstring php-xml php-apcu php-cli nginx)`
      : false;

export interface RealOsticketOptions {
  /** Plugin folders copied into include/plugins/ (by their folder name), ready to install. */
  plugins?: string[];
  /**
   * Whether `apiKey` is granted, with the real `deskgate osticket keys grant`, what every "Can
   * Create Tickets" key could do through deskgate before issue 32 (write, users:read,
   * tickets:read, tickets:write as any agent). Default true; false leaves it osTicket's rights.
   */
  formerApiKey?: boolean;
}

export interface StaffAccount {
  id: number;
  username: string;
  password: string;
  email: string;
}

export interface RealOsticket {
  /** The help desk's address, ending in a slash: http://127.0.0.1:PORT/upload/ */
  baseUrl: string;
  /** The osTicket folder on disk (the web root's `upload/`). */
  root: string;
  /** mysql://… of the install's own database (its own user), for deskgate in osTicket mode. */
  databaseUrl: string;
  databaseName: string;
  prefix: string;
  /** The administrator the installer made. */
  admin: StaffAccount;
  /** An active API key bound to 127.0.0.1 that may create tickets. */
  apiKey: { id: number; key: string };
  /** Runs SQL on the install's database (session time zone as osTicket's, DATETIMEs as text). */
  query<T>(sql: string, values?: unknown[]): Promise<T[]>;
  /** Runs an INSERT; resolves to the new row's id. */
  insert(sql: string, values?: unknown[]): Promise<number>;
  /** A fresh browser (own cookie jar) on this help desk. */
  browser(): OsticketBrowser;
  /** A browser signed in to the staff panel as `account` (default: the administrator). */
  staffBrowser(account?: StaffAccount): Promise<OsticketBrowser>;
  /** `php api/cron.php` in the osTicket folder; resolves to its output. */
  runCron(): Promise<string>;
  /**
   * Runs PHP code after osTicket's own bootstrap (api/api.inc.php), as `php -r`; resolves to
   * what it printed. E.g. `echo Ticket::lookup(1)->getSLADueDate(true);`
   */
  runPhp(code: string): Promise<string>;
  /** Sends the help desk's outgoing mail through SMTP on 127.0.0.1:`port` (no auth, no TLS). */
  routeMailTo(port: number): Promise<void>;
  /** Stops nginx, drops the database and its user, removes the files. Safe to call twice. */
  stop(): Promise<void>;
}

/**
 * The tarball extracted once per machine (per tarball size and time) into its temp folder.
 * Concurrent first runs each extract into a folder of their own; the first rename wins.
 */
async function extractedSource(): Promise<string> {
  const stat = statSync(TARBALL);
  const tag = createHash('sha256')
    .update(`${stat.size}:${stat.mtimeMs}`)
    .digest('hex')
    .slice(0, 12);
  const cacheRoot = join(MACHINE_TMPDIR, 'deskgate-osticket-source');
  const finalDir = join(cacheRoot, tag);
  const source = join(finalDir, 'osticket-1.18.1');
  if (existsSync(join(source, 'main.inc.php'))) return source;
  mkdirSync(cacheRoot, { recursive: true });
  const staging = mkdtempSync(join(cacheRoot, `.staging-${tag}-`));
  try {
    await run('tar', ['-xzf', TARBALL, '-C', staging]);
    renameSync(staging, finalDir);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    if (!existsSync(join(source, 'main.inc.php'))) throw error;
  }
  return source;
}

/** Whether something accepts connections on the php-fpm socket (a file alone can be stale). */
function fpmAnswers(): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(FPM_SOCKET);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * php-fpm is Debian's system service, started when nothing answers on its socket. The socket
 * file can outlive its process (a machine restored from a snapshot keeps /run's files, not its
 * processes), so the test is a connection, not the file.
 */
async function ensurePhpFpm(): Promise<void> {
  if (await fpmAnswers()) return;
  await run('service', ['php8.2-fpm', 'start']).catch(() => run(PHP_FPM, ['--daemonize']));
  for (let i = 0; i < 50; i++) {
    if (await fpmAnswers()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`php-fpm does not answer on ${FPM_SOCKET}`);
}

/** Databases (and users) of earlier runs whose process died before its cleanup. */
async function dropAbandoned(admin: Connection): Promise<void> {
  const [rows] = await admin.query<(ResultSetHeader & { Database: string })[]>(
    `SHOW DATABASES LIKE '${DB_PREFIX}%'`,
  );
  for (const { Database: name } of rows as unknown as { Database: string }[]) {
    const pid = Number(/^osticket_real_(\d+)_/.exec(name)?.[1]);
    if (!pid || isAlive(pid)) continue;
    await admin.query(`DROP DATABASE IF EXISTS \`${name}\``);
    await admin.query(`DROP USER IF EXISTS '${name}'@'localhost', '${name}'@'127.0.0.1'`);
  }
}

function nginxConfig(webRoot: string, runDir: string, port: number): string {
  return `daemon off;
user www-data;
worker_processes 1;
pid ${runDir}/nginx.pid;
error_log ${runDir}/error.log warn;
events { worker_connections 64; }
http {
  include /etc/nginx/mime.types;
  access_log off;
  client_body_temp_path ${runDir}/body;
  fastcgi_temp_path ${runDir}/fastcgi;
  proxy_temp_path ${runDir}/proxy;
  uwsgi_temp_path ${runDir}/uwsgi;
  scgi_temp_path ${runDir}/scgi;
  server {
    listen 127.0.0.1:${port};
    root ${webRoot};
    index index.php;
    location ~ ^/upload/api/(?!http\\.php|cron\\.php|pipe\\.php)(.+)$ {
      rewrite ^/upload/api/(.+)$ /upload/api/http.php/$1 last;
    }
    location ~ [^/]\\.php(/|$) {
      fastcgi_split_path_info ^(.+\\.php)(/.+)$;
      include /etc/nginx/fastcgi_params;
      fastcgi_param SCRIPT_FILENAME $document_root$fastcgi_script_name;
      fastcgi_param PATH_INFO $fastcgi_path_info;
      fastcgi_pass unix:${FPM_SOCKET};
    }
  }
}
`;
}

async function waitForHttp(url: string, nginx: ChildProcess, errorLog: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (nginx.exitCode !== null) {
      throw new Error(
        `nginx exited: ${existsSync(errorLog) ? readFileSync(errorLog, 'utf8') : ''}`,
      );
    }
    try {
      await (await fetch(url)).arrayBuffer();
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  throw new Error(`nginx did not answer at ${url}`);
}

/**
 * Installs osTicket 1.18.1 as running-osticket.md describes: its files in a temp web root that
 * www-data can read, its own database and user on the test MariaDB, Debian's php-fpm, an nginx
 * of its own on a free port, the web installer driven over HTTP, then helpdesk_url,
 * verify_email_addrs=0 and an API key. Anything started is undone if a step fails.
 */
export async function startRealOsticket(options: RealOsticketOptions = {}): Promise<RealOsticket> {
  if (REAL_OSTICKET_SKIP) throw new Error(REAL_OSTICKET_SKIP);
  const cleanups: (() => Promise<void> | void)[] = [];
  const undo = async () => {
    for (const step of cleanups.splice(0).reverse()) await step();
  };
  let nginx: ChildProcess | undefined;
  const exitGuard = () => {
    // Last resort when the process ends without `stop()`: the database goes at the next run.
    if (nginx?.pid) nginx.kill('SIGKILL');
    rmSync(webRoot, { recursive: true, force: true });
  };
  // Beside the extracted source: its files are hard-linked, which needs the same file system.
  const webRoot = mkdtempSync(join(MACHINE_TMPDIR, 'deskgate-osticket-'));
  cleanups.push(() => rmSync(webRoot, { recursive: true, force: true }));
  process.once('exit', exitGuard);
  cleanups.push(() => void process.off('exit', exitGuard));

  try {
    chmodSync(webRoot, 0o755);
    const root = join(webRoot, 'upload');
    // Hard links: a copy of 2,200 files in milliseconds; the few files osTicket writes are
    // replaced by files of their own below, so the shared source is never written.
    await run('cp', ['-al', await extractedSource(), root]);
    const configFile = join(root, 'include', 'ost-config.php');
    rmSync(configFile, { force: true });
    copyFileSync(join(root, 'include', 'ost-sampleconfig.php'), configFile);
    chmodSync(configFile, 0o666);
    for (const plugin of options.plugins ?? []) {
      cpSync(plugin, join(root, 'include', 'plugins', basename(plugin)), { recursive: true });
    }

    const adminUrl = MYSQL_ADMIN_URL as string;
    const admin = await createConnection(adminUrl);
    const name = `${DB_PREFIX}${process.pid}_${randomBytes(4).toString('hex')}`;
    const password = randomBytes(12).toString('hex');
    try {
      await dropAbandoned(admin);
      await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8`);
      cleanups.push(async () => {
        const cleanup = await createConnection(adminUrl);
        await cleanup.query(`DROP DATABASE IF EXISTS \`${name}\``);
        await cleanup.query(`DROP USER IF EXISTS '${name}'@'localhost', '${name}'@'127.0.0.1'`);
        await cleanup.end();
      });
      for (const host of ['localhost', '127.0.0.1']) {
        await admin.query(`CREATE USER '${name}'@'${host}' IDENTIFIED BY '${password}'`);
        await admin.query(`GRANT ALL ON \`${name}\`.* TO '${name}'@'${host}'`);
      }
    } finally {
      await admin.end();
    }

    await ensurePhpFpm();
    const port = await freePort();
    const runDir = mkdtempSync(join(tmpdir(), 'deskgate-nginx-'));
    cleanups.push(() => rmSync(runDir, { recursive: true, force: true }));
    const confFile = join(runDir, 'nginx.conf');
    const errorLog = join(runDir, 'error.log');
    writeFileSync(confFile, nginxConfig(webRoot, runDir, port));
    nginx = spawn(NGINX, ['-c', confFile, '-e', errorLog, '-p', runDir], { stdio: 'ignore' });
    const started = nginx;
    cleanups.push(async () => {
      if (started.exitCode !== null) return;
      const exited = new Promise((resolve) => started.once('exit', resolve));
      started.kill('SIGQUIT');
      const timer = setTimeout(() => started.kill('SIGKILL'), 3000);
      await exited;
      clearTimeout(timer);
    });
    const baseUrl = `http://127.0.0.1:${port}/upload/`;
    await waitForHttp(baseUrl, nginx, errorLog);

    const adminAccount: StaffAccount = {
      id: 1,
      username: 'deskadmin',
      password: `Pw-${randomBytes(9).toString('hex')}`,
      email: 'admin@deskgate.test',
    };
    const installer = new OsticketBrowser(baseUrl);
    await installer.get('setup/install.php');
    await installer.postForm('setup/install.php', { s: 'prereq' });
    const done = await installer.postForm('setup/install.php', {
      s: 'install',
      name: 'deskgate test desk',
      email: 'support@deskgate.test',
      fname: 'Desk',
      lname: 'Admin',
      admin_email: adminAccount.email,
      username: adminAccount.username,
      passwd: adminAccount.password,
      passwd2: adminAccount.password,
      prefix: 'ost_',
      dbhost: '127.0.0.1',
      dbname: name,
      dbuser: name,
      dbpass: password,
      timezone: 'UTC',
      lang_id: 'en_US',
    });
    if (!/Congratulations/i.test(done.text)) {
      const error =
        /<div id="msg_error"[^>]*>([^<]*)/.exec(done.text)?.[1] ?? done.text.slice(0, 500);
      throw new Error(`osTicket's installer did not finish: ${error}`);
    }
    chmodSync(configFile, 0o644);

    const databaseUrl = `mysql://${name}:${password}@127.0.0.1:${new URL(adminUrl).port || 3306}/${name}`;
    const connection = await createConnection({
      uri: databaseUrl,
      dateStrings: true,
      charset: 'utf8mb4',
    });
    cleanups.push(() => connection.end());
    // osTicket's own session settings (include/mysqli.php): zero dates allowed, server time zone.
    await connection.query(`SET SESSION sql_mode = '', time_zone = 'SYSTEM'`);
    const query = async <T>(sql: string, values: unknown[] = []) => {
      const [rows] = await connection.query(sql, values);
      return rows as T[];
    };
    const insert = async (sql: string, values: unknown[] = []) => {
      const [result] = await connection.query<ResultSetHeader>(sql, values);
      return result.insertId;
    };

    await query(
      `UPDATE ost_config SET value = ? WHERE namespace = 'core' AND \`key\` = 'helpdesk_url'`,
      [baseUrl],
    );
    await insert(
      `INSERT INTO ost_config (namespace, \`key\`, value, updated) VALUES ('core', 'verify_email_addrs', '0', NOW())
       ON DUPLICATE KEY UPDATE value = '0'`,
    );
    const key = randomBytes(16).toString('hex').toUpperCase();
    const keyId = await insert(
      `INSERT INTO ost_api_key (isactive, ipaddr, apikey, can_create_tickets, can_exec_cron, notes, updated, created)
       VALUES (1, '127.0.0.1', ?, 1, 1, 'deskgate tests', NOW(), NOW())`,
      [key],
    );

    if (options.formerApiKey !== false) await grantOsticketKey({ url: databaseUrl }, keyId);

    const phpInRoot = async (args: string[]) => {
      const { stdout } = await run(PHP, args, { cwd: join(root, 'api'), maxBuffer: 16 << 20 });
      return stdout;
    };

    let stopped = false;
    return {
      baseUrl,
      root,
      databaseUrl,
      databaseName: name,
      prefix: 'ost_',
      admin: adminAccount,
      apiKey: { id: keyId, key },
      query,
      insert,
      browser: () => new OsticketBrowser(baseUrl),
      async staffBrowser(account = adminAccount) {
        const browser = new OsticketBrowser(baseUrl);
        await browser.signInStaff(account.username, account.password);
        return browser;
      },
      runCron: () => phpInRoot(['cron.php']),
      runPhp: (code) =>
        phpInRoot([
          '-r',
          `chdir(${JSON.stringify(join(root, 'api'))}); require 'api.inc.php'; ${code}`,
        ]),
      async routeMailTo(smtpPort) {
        await query(`DELETE FROM ost_email_account WHERE type = 'smtp'`);
        for (const { email_id } of await query<{ email_id: number }>(
          'SELECT email_id FROM ost_email',
        )) {
          await insert(
            `INSERT INTO ost_email_account (email_id, type, auth_bk, active, host, port, protocol, encryption, created, updated)
             VALUES (?, 'smtp', 'none', 1, '127.0.0.1', ?, 'SMTP', 'NONE', NOW(), NOW())`,
            [email_id, smtpPort],
          );
        }
      },
      async stop() {
        if (stopped) return;
        stopped = true;
        await undo();
      },
    };
  } catch (error) {
    await undo();
    throw error;
  }
}
