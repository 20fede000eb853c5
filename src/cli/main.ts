import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config.ts';
import { StoreError } from '../data/store.ts';
import { scrubErrorText } from '../serialize-error.ts';
import { type Command, CommandError, UsageError } from './command.ts';
import { COMMANDS } from './commands/index.ts';

const COMMON_OPTIONS = {
  database: { type: 'string' },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

function helpText(): string {
  const lines = COMMANDS.map((c) => `  ${c.usage}\n      ${c.summary}`);
  return `Usage: deskgate <command> [options]\n\nCommands:\n${lines.join('\n')}\n\nEvery command takes --database URL (default: DESKGATE_DATABASE_URL, then sqlite:./data/deskgate.db).\n`;
}

function findCommand(argv: readonly string[]): { command: Command; rest: string[] } {
  for (const command of COMMANDS) {
    const words = command.name.split(' ');
    if (words.every((word, i) => argv[i] === word))
      return { command, rest: argv.slice(words.length) };
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

async function run(argv: readonly string[], env: NodeJS.ProcessEnv): Promise<void> {
  if (argv.length === 0 || argv[0] === '--help' || argv[0] === '-h' || argv[0] === 'help') {
    process.stdout.write(helpText());
    if (argv.length === 0) throw new UsageError('no command given');
    return;
  }
  const { command, rest } = findCommand(argv);
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
  const config = loadConfig(
    typeof database === 'string' ? { ...env, DESKGATE_DATABASE_URL: database } : env,
  );
  await command.run({
    values: parsed.values,
    positionals: parsed.positionals,
    config,
    out: (text) => process.stdout.write(text),
  });
}

/** Runs the CLI. Expected errors print one line on stderr: exit 2 for usage, 1 for failures. */
export async function main(
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<void> {
  try {
    await run(argv, env);
  } catch (error) {
    const expected = error instanceof UsageError || error instanceof ConfigError;
    if (expected || error instanceof CommandError || error instanceof StoreError) {
      process.stderr.write(`deskgate: ${error.message}\n`);
      process.exitCode = expected ? 2 : 1;
      return;
    }
    const { code, syscall } = error as NodeJS.ErrnoException;
    // A system call that failed (a path that cannot be created, a port in use) is the
    // environment's problem, not a bug: its message is enough.
    if (typeof syscall === 'string' || code === 'SQLITE_CANTOPEN' || code === 'SQLITE_NOTADB') {
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
