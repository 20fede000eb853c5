/**
 * An answer's headers as names and values in turn, the form node:http's `writeHead` takes. One
 * `writeHead` with this list costs less than a `setHeader` per header, which validates, lowercases
 * and stores each in an object that `writeHead` then walks again: about 3 µs for the eight headers
 * of a topic answer (docs/decisions/094-answers-written-per-event-loop-turn.md).
 */
export type HeaderList = string[];

/** Adds `headers` to the end of `list`. */
export function addHeaders(list: HeaderList, headers: Readonly<Record<string, string>>): void {
  for (const name in headers) list.push(name, headers[name] as string);
}
