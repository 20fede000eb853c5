import { escapeControlCharacters } from './control-characters.ts';

/**
 * A plain text table with a header row, for people; `--json` is for programs. Control
 * characters in cells are shown escaped, so a stored name cannot forge rows or move the cursor.
 */
export function formatTable(
  headers: readonly string[],
  unsafeRows: readonly (readonly string[])[],
): string {
  const rows = unsafeRows.map((r) => r.map(escapeControlCharacters));
  // A loop, not Math.max(...column): spreading 130,000 cells overflows the call stack.
  const widths = headers.map((h) => h.length);
  for (const row of rows) {
    row.forEach((cell, i) => {
      widths[i] = Math.max(widths[i] ?? 0, cell.length);
    });
  }
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return `${[line(headers), ...rows.map(line)].join('\n')}\n`;
}
