import { execFile } from 'node:child_process';
import { cpSync, existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import type { RealOsticket } from './real-osticket.ts';

const run = promisify(execFile);

/** Where `fetch github:BMSVieira/osticket-api` leaves its copy on a development machine. */
const MIRROR = '/work/.mirror/BMSVieira+osticket-api/repo';

/**
 * The PHP service's source: DESKGATE_TEST_OSTICKET_API_DIR (a checkout holding `ost_wbs/`, or a
 * git directory of BMSVieira/osticket-api), else the fetched mirror when this machine has it.
 * Its code is never in this repository: the test copies it in at run time.
 */
const SOURCE = process.env.DESKGATE_TEST_OSTICKET_API_DIR || (existsSync(MIRROR) ? MIRROR : '');

/** Why the PHP service cannot be installed here, or false when it can. */
export const ORIGINAL_SERVICE_SKIP: string | false = SOURCE
  ? existsSync(SOURCE)
    ? false
    : `skipped: DESKGATE_TEST_OSTICKET_API_DIR=${SOURCE} does not exist`
  : `skipped: the original PHP service is not on this machine (set DESKGATE_TEST_OSTICKET_API_DIR to a checkout of github.com/BMSVieira/osticket-api, or its git directory)`;

/**
 * Installs the original PHP service beside a real osTicket, as tickets.md's appendix §4 does:
 * its `ost_wbs` folder under the same web root, its config.php given the install's database, and
 * the `class.dBConnection.php` link its autoloader needs on a case-sensitive file system.
 * Resolves to its address (`http://127.0.0.1:PORT/ost_wbs/`).
 */
export async function installOriginalService(osticket: RealOsticket): Promise<string> {
  if (ORIGINAL_SERVICE_SKIP) throw new Error(ORIGINAL_SERVICE_SKIP);
  const webRoot = dirname(osticket.root);
  const target = join(webRoot, 'ost_wbs');
  if (existsSync(join(SOURCE, 'ost_wbs', 'index.php'))) {
    cpSync(join(SOURCE, 'ost_wbs'), target, { recursive: true });
  } else {
    const archive = join(webRoot, 'ost_wbs.tar');
    await run('git', [`--git-dir=${SOURCE}`, 'archive', '-o', archive, 'HEAD', 'ost_wbs']);
    await run('tar', ['-xf', archive, '-C', webRoot]);
  }
  const url = new URL(osticket.databaseUrl);
  const settings: Record<string, string> = {
    DBTYPE: 'mysql',
    DBHOST: url.hostname,
    DBNAME: decodeURIComponent(url.pathname.slice(1)),
    DBUSER: decodeURIComponent(url.username),
    DBPASS: decodeURIComponent(url.password),
    TABLE_PREFIX: osticket.prefix,
  };
  const configFile = join(target, 'config.php');
  let config = readFileSync(configFile, 'utf8');
  for (const [name, value] of Object.entries(settings)) {
    const pattern = new RegExp(`define\\('${name}',\\s*'[^']*'\\)`);
    if (!pattern.test(config)) throw new Error(`the PHP service's config.php has no ${name}`);
    config = config.replace(pattern, `define('${name}','${value}')`);
  }
  // mysqli takes no port in the host name; the port is its ini default.
  config = config.replace('<?php', `<?php\nini_set('mysqli.default_port', '${url.port || 3306}');`);
  writeFileSync(configFile, config);
  symlinkSync('class.dbconnection.php', join(target, 'classes', 'class.dBConnection.php'));
  return new URL('../ost_wbs/', osticket.baseUrl).href;
}
