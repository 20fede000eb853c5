/** Reads remembered at once; beyond it the cache starts over. */
const CACHE_LIMIT = 1_000;

interface Entry {
  rows?: readonly unknown[];
  next?: Map<unknown, Entry>;
}

/**
 * The rows of prepared reads by SQL text and parameter values, for a connection that empties it
 * whenever the database may have changed (sqlite-read-connection.ts). Only primitive values are
 * keys (Map equality: 1 and '1' are different reads). Rows are frozen: every caller shares them.
 */
export class ReadResultCache {
  readonly #bySql = new Map<string, Entry>();
  #size = 0;

  get(sql: string, values: readonly unknown[]): readonly unknown[] | undefined {
    let entry = this.#bySql.get(sql);
    for (let i = 0; entry && i < values.length; i++) entry = entry.next?.get(values[i]);
    return entry?.rows;
  }

  /** Remembers `rows` (freezing them) and returns them. */
  set(sql: string, values: readonly unknown[], rows: unknown[]): readonly unknown[] {
    if (!values.every(isPrimitive)) return rows;
    if (this.#size >= CACHE_LIMIT) this.clear();
    let entry = this.#bySql.get(sql);
    if (!entry) {
      entry = {};
      this.#bySql.set(sql, entry);
    }
    for (const value of values) {
      entry.next ??= new Map();
      let next = entry.next.get(value);
      if (!next) {
        next = {};
        entry.next.set(value, next);
      }
      entry = next;
    }
    for (const row of rows) Object.freeze(row);
    entry.rows = Object.freeze(rows);
    this.#size++;
    return entry.rows;
  }

  clear(): void {
    this.#bySql.clear();
    this.#size = 0;
  }
}

function isPrimitive(value: unknown): boolean {
  return value === null || (typeof value !== 'object' && typeof value !== 'function');
}
