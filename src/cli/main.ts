import { once } from 'node:events';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config.ts';
import {
  DatabaseRefusedError,
  describeRefusal,
  NotADeskgateDatabaseError,
} from '../data/database-open-error.ts';
import { redactUrl } from '../data/open-database.ts';
import { SchemaOutOfDateError } from '../data/open-store.ts';
import { DatabaseUnreachableError, StoreError } from '../data/store.ts';
import { readPackageVersion } from '../package-files.ts';
import { scrubErrorText } from '../scrub-error-text.ts';
import { FirstKeyFileError } from '../server/announce-first-key.ts';
import { type Command, CommandError, UsageError } from './command.ts';
import { findCommandGroup, groupHelpText } from './command-groups.ts';
import { COMMANDS, loadCommands } from './commands/index.ts';
import { endOnBrokenPipe } from './end-on-broken-pipe.ts';

const COMMON_OPTIONS = {
  database: { type: 'string' },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

async function helpText(): Promise<string> {
  const lines = (await loadCommands()).map((c) => `  ${c.usage}\n      ${c.summary}`);
  return (
    `Usage: deskgate <command> [options]\n\nCommands:\n${lines.join('\n')}\n\n` +
    'Every command takes --database URL (default: DESKGATE_DATABASE_URL, then sqlite:./data/deskgate.db)\n' +
    'and --help. Only serve and migrate create or change a database schema.\n' +
    'deskgate --version (or -v) prints the version.\n'
  );
}

async function findCommand(argv: readonly string[]): Promise<{ command: Command; rest: string[] }> {
  for (const entry of COMMANDS) {
    const words = entry.name.split(' ');
    if (words.every((word, i) => argv[i] === word))
      return { command: await entry.load(), rest: argv.slice(words.length) };
  }
  // Only the words before the first option: `frob --database x` names "frob", not "frob x".
  const firstOption = argv.findIndex((a) => a.startsWith('-'));
  const given = argv
    .slice(0, firstOption === -1 ? argv.length : firstOption)
    .slice(0, 2)
    .join(' ');
  throw new UsageError(
    given
      ? `unknown command "${given}"; run deskgate --help`
      : 'no command given; run deskgate --help',
  );
}

const HELP_FLAGS = ['--help', '-h'];
/** `-v` too: what most commands take (npm, node, git --version's short form varies). */
const VERSION_FLAGS = ['--version', '-V', '-v'];

/** Where the database URL came from, for messages a person acts on. */
interface DatabaseSetting {
  /** `--database` or `DESKGATE_DATABASE_URL`. */
  name: string;
  /** Set when the URL is known (the configuration loaded). */
  url?: string;
  /** Configuration variables set by the command's options, and the option that set each. */
  byOption: Map<string, string>;
}

async function run(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  setting: DatabaseSetting,
): Promise<void> {
  endOnBrokenPipe(() => argv[0] === 'serve');
  if (argv.length === 0 || HELP_FLAGS.includes(argv[0] ?? '') || argv[0] === 'help') {
    const group = argv[0] === 'help' ? findCommandGroup(argv.slice(1)) : undefined;
    process.stdout.write(group ? await groupHelpText(group) : await helpText());
    if (argv.length === 0) throw new UsageError('no command given');
    return;
  }
  if (VERSION_FLAGS.includes(argv[0] ?? '')) {
    process.stdout.write(`${readPackageVersion()}\n`);
    return;
  }
  const group = findCommandGroup(argv);
  const groupWords = group?.split(' ').length ?? 0;
  if (group && argv.length === groupWords)
    throw new UsageError(`${group} needs a command; run deskgate ${group} --help`);
  if (group && HELP_FLAGS.includes(argv[groupWords] ?? '')) {
    process.stdout.write(await groupHelpText(group));
    return;
  }
  const { command, rest } = await findCommand(argv);
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: rest,
      options: { ...command.options, ...COMMON_OPTIONS },
      strict: true,
      allowPositionals: true,
    });
  } catch (error) {
    // parseArgs appends advice about `--` to unknown options; the usage line is the better advice.
    const reason = (error as Error).message
      .split('\n')[0]
      ?.replace(/\. To specify a positional.*$/, '');
    throw new UsageError(`${reason} (usage: ${command.usage})`);
  }
  if (parsed.values.help) {
    process.stdout.write(`Usage: ${command.usage}\n${command.summary}\n`);
    return;
  }
  if (parsed.positionals.length !== command.positionals) {
    throw new UsageError(
      `expected ${command.positionals} argument(s), got ${parsed.positionals.length} (usage: ${command.usage})`,
    );
  }
  const database = parsed.values.database;
  if (typeof database === 'string' && database === '')
    throw new UsageError('--database needs a URL');
  if (typeof database === 'string') setting.name = '--database';
  const overrides: Record<string, string> = {};
  if (typeof database === 'string') overrides.DESKGATE_DATABASE_URL = database;
  for (const [option, variable] of Object.entries(command.settings ?? {})) {
    const value = parsed.values[option];
    if (typeof value !== 'string') continue;
    if (value === '') throw new UsageError(`--${option} needs a value`);
    overrides[variable] = value;
    setting.byOption.set(variable, `--${option}`);
  }
  const config = loadConfig({ ...env, ...overrides });
  setting.url = config.databaseUrl;
  await command.run({
    values: parsed.values,
    positionals: parsed.positionals,
    config,
    out: (text) =>
      process.stdout.write(text) ? undefined : once(process.stdout, 'drain').then(() => {}),
  });
}

/**
 * A configuration error names the variable; when the user gave it as an option (`--database`,
 * `serve --port`), the message names the option instead: `--port "x" is not valid: …`.
 */
function nameSettingsAsGiven(message: string, setting: DatabaseSetting): string {
  const byOption = new Map(setting.byOption);
  if (setting.name === '--database') byOption.set('DESKGATE_DATABASE_URL', '--database');
  for (const [variable, option] of byOption) {
    if (!message.startsWith(variable) || /\w/.test(message[variable.length] ?? '')) continue;
    const rest = message.slice(variable.length);
    return rest.startsWith('=') ? `${option} ${rest.slice(1)}` : `${option}${rest}`;
  }
  return message;
}

/** Failures to open the database the URL names: the fix is in the URL or on that server. */
const OPEN_ERRORS = [
  DatabaseRefusedError,
  DatabaseUnreachableError,
  NotADeskgateDatabaseError,
  SchemaOutOfDateError,
];

function databaseSuffix(setting: DatabaseSetting, env: NodeJS.ProcessEnv): string {
  if (setting.name === '--database') return ' (set by --database)';
  return env.DESKGATE_DATABASE_URL
    ? ' (set by DESKGATE_DATABASE_URL)'
    : ' (the default; set DESKGATE_DATABASE_URL or pass --database)';
}

/** Runs the CLI. Expected errors print one line on stderr: exit 2 for usage, 1 for failures. */
export async function main(
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<void> {
  const setting: DatabaseSetting = { name: 'DESKGATE_DATABASE_URL', byOption: new Map() };
  try {
    await run(argv, env, setting);
  } catch (error) {
    const expected = error instanceof UsageError || error instanceof ConfigError;
    if (expected || error instanceof CommandError || error instanceof FirstKeyFileError) {
      process.stderr.write(`deskgate: ${nameSettingsAsGiven(error.message, setting)}\n`);
      process.exitCode = expected ? 2 : 1;
      return;
    }
    if (error instanceof StoreError) {
      const opening = OPEN_ERRORS.some((type) => error instanceof type);
      process.stderr.write(
        `deskgate: ${error.message}${opening ? databaseSuffix(setting, env) : ''}\n`,
      );
      process.exitCode = 1;
      return;
    }
    // The database refused a write after it opened (a read-only SQLite file, a revoked grant).
    const refusal = describeRefusal(error);
    if (refusal && setting.url) {
      process.stderr.write(
        `deskgate: cannot use the database at ${redactUrl(setting.url)}: ${refusal}${databaseSuffix(setting, env)}\n`,
      );
      process.exitCode = 1;
      return;
    }
    const { syscall } = error as NodeJS.ErrnoException;
    // A system call that failed (a path that cannot be created, a port in use) is the
    // environment's problem, not a bug: its message is enough.
    if (typeof syscall === 'string') {
      process.stderr.write(`deskgate: ${(error as Error).message}\n`);
      process.exitCode = 1;
      return;
    }
    process.stderr.write(
      `deskgate: unexpected error: ${scrubErrorText(error instanceof Error ? (error.stack ?? error.message) : String(error))}\n`,
    );
    process.exitCode = 1;
  }
}
