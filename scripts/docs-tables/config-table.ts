/**
 * The README's configuration table, from the settings' own table (SETTINGS in src/config.ts):
 * each variable, its default as the schema gives it, and its meaning (decision 440).
 */
import * as z from 'zod';
import { SETTINGS, type Setting } from '../../src/config.ts';

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
