/** C0, DEL and C1 controls: a name holding one could move the cursor or forge lines in a table. */
const CONTROL = /\p{Cc}/u;
const CONTROL_GLOBAL = /\p{Cc}/gu;
/** Notes are free text over several lines: tab, line feed and carriage return are kept. */
const CONTROL_IN_TEXT = /[^\P{Cc}\t\n\r]/u;

export function hasControlCharacters(value: string): boolean {
  return CONTROL.test(value);
}

/** For multi-line text: controls other than tab, line feed and carriage return (NUL above all). */
export function hasControlCharactersInText(value: string): boolean {
  return CONTROL_IN_TEXT.test(value);
}

/** A value as the terminal may show it: every control character written as \u{…}. */
export function escapeControlCharacters(value: string): string {
  return value.replace(
    CONTROL_GLOBAL,
    (c) => `\\u{${(c.codePointAt(0) ?? 0).toString(16).padStart(2, '0')}}`,
  );
}
