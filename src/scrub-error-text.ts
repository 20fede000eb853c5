/**
 * The values an error message or stack quotes, scrubbed. Kept apart from serialize-error.ts so
 * that a CLI command, which prints these, does not load pino to start.
 */

/** Message shapes that quote a value: MySQL's "Duplicate entry 'x'", "Incorrect … value: 'x'", PostgreSQL's input syntax errors. */
const QUOTED_VALUES: readonly RegExp[] = [
  /(Duplicate entry )'(?:[^'\\]|\\.)*'/g,
  /((?:Incorrect|Truncated incorrect) [\w ]+ value: )'(?:[^'\\]|\\.)*'/g,
  /(invalid input syntax for type [\w ]+: )"[^"]*"/g,
  /(invalid byte sequence for encoding "[\w-]+": )[^\n]*/g,
];

const BCRYPT_HASH = /\$2[aby]?\$\d\d\$[./A-Za-z0-9]{53}/g;

/** A message or stack with the values it quotes replaced by "…". */
export function scrubErrorText(text: string): string {
  let scrubbed = text;
  for (const pattern of QUOTED_VALUES) scrubbed = scrubbed.replace(pattern, "$1'…'");
  return scrubbed.replace(BCRYPT_HASH, '[password hash]');
}
