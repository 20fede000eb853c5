/**
 * Writes the README's configuration table, between `<!-- config:begin -->` and
 * `<!-- config:end -->`, from the settings' own table (SETTINGS in src/config.ts): each variable,
 * its default as the schema gives it, and its meaning. test/docs/readme-config.test.ts fails when
 * the README is not what this script writes now.
 *
 * Usage: node scripts/generate-readme-config.ts          (writes README.md)
 *        node scripts/generate-readme-config.ts --check  (exit 1 when it differs)
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { SETTINGS, type Setting } from '../src/config.ts';

export const README_FILE = join(fileURLToPath(import.meta.url), '..', '..', 'README.md');
const BEGIN = '<!-- config:begin -->';
const END = '<!-- config:end -->';

const UNITS: readonly [string, number][] = [
  ['d', 86_400_000],
  ['h', 3_600_000],
  ['m', 60_000],
  ['s', 1_000],
  ['ms', 1],
];

/** 10000 → `10s`: the largest unit that divides it, as the duration settings are written. */
function durationText(ms: number): string {
  const [unit, size] = UNITS.find(([, size]) => ms % size === 0) ?? ['ms', 1];
  return `${ms / size}${unit}`;
}

/** The default, written as the variable would be: `(none)` where there is none. */
function defaultText(setting: Setting): string {
  // A secret's value is never printed, not even a default one.
  if (setting.secret || !(setting.schema instanceof z.ZodDefault)) return '(none)';
  const value: unknown = setting.schema.def.defaultValue;
  const values = Array.isArray(value) ? value : [value];
  const text = values
    .map((one) => (setting.duration && typeof one === 'number' ? durationText(one) : String(one)))
    .join(',');
  return text === '' ? '(none)' : `\`${text}\``;
}

/** The Markdown table, one row per variable in SETTINGS' order. */
export function configTable(): string {
  const rows = Object.entries(SETTINGS as Record<string, Setting>).map(
    ([name, setting]) => `| \`${name}\` | ${defaultText(setting)} | ${setting.doc} |`,
  );
  return ['| variable | default | meaning |', '| --- | --- | --- |', ...rows].join('\n');
}

/** `readme` with its configuration table written afresh between the markers. */
export function withConfigTable(readme: string): string {
  const begin = readme.indexOf(BEGIN);
  const end = readme.indexOf(END);
  if (begin < 0 || end < begin) throw new Error(`README.md needs ${BEGIN} … ${END}`);
  return `${readme.slice(0, begin + BEGIN.length)}\n${configTable()}\n${readme.slice(end)}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const readme = readFileSync(README_FILE, 'utf8');
  const written = withConfigTable(readme);
  if (process.argv[2] === '--check') {
    if (written !== readme) process.exitCode = 1;
  } else {
    writeFileSync(README_FILE, written);
  }
}
