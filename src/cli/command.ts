import type { ParseArgsOptionsConfig } from 'node:util';
import type { Config } from '../config.ts';

export interface CommandInput {
  /** Option values as parsed by node:util parseArgs. */
  values: Record<string, string | boolean | (string | boolean)[] | undefined>;
  positionals: string[];
  /** Configuration with `--database` already applied. */
  config: Readonly<Config>;
  /** Where the command prints its result; a promise when the reader is behind (await it in loops). */
  out: (text: string) => void | Promise<void>;
}

/** One CLI command: a file in commands/ and a lazy line in commands/index.ts. */
export interface Command {
  /** Words that select it, e.g. `keys create`. */
  name: string;
  usage: string;
  summary: string;
  options: ParseArgsOptionsConfig;
  /** How many positional arguments it takes. */
  positionals: number;
  /**
   * Options that set a configuration variable for this run, by option name (`serve --port` sets
   * PORT): applied over the environment before the configuration is read, and named instead of
   * the variable in its errors. Each must be a string option of `options`.
   */
  settings?: Readonly<Record<string, string>>;
  run(input: CommandInput): Promise<void>;
}

/** Bad command-line input: exit status 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** An expected failure (no such key, duplicate, bad file): one line, exit status 1. */
export class CommandError extends Error {
  override name = 'CommandError';
}

export const JSON_OPTION = { json: { type: 'boolean', default: false } } as const;

export function printJson(input: CommandInput, value: unknown): void {
  input.out(`${JSON.stringify(value, null, 2)}\n`);
}

/** A command's result: `value` as JSON with --json, else the text `asText` makes of it. */
export function printResult<Value>(
  input: CommandInput,
  value: Value,
  asText: (value: Value) => string,
): void {
  if (input.values.json) printJson(input, value);
  else input.out(asText(value));
}

/** Parses a positional or option as a positive integer id, or throws a UsageError naming it. */
export function parseId(value: string | undefined, what: string): number {
  if (
    value === undefined ||
    !/^[0-9]{1,10}$/.test(value) ||
    Number(value) < 1 ||
    Number(value) > 2147483647
  ) {
    throw new UsageError(`${what} must be a positive integer, got ${JSON.stringify(value ?? '')}`);
  }
  return Number(value);
}
