import type SQLite from 'better-sqlite3';

/**
 * Each connection's page cache, in KiB (decision 335): 64 MiB instead of SQLite's default 2 MiB.
 * SQLite grows the cache a page at a time as pages are read, so a small database never takes
 * more than its own size; at a million tickets a page of 100 reads its 500 entries from pages
 * scattered through five million rows, which a 2 MiB cache re-reads from the operating system
 * on every request. A fixed default, not a setting: the operating system's cache still backs it.
 */
export const SQLITE_PAGE_CACHE_KIB = 64 * 1024;

/** A negative cache_size is in KiB rather than in pages, whatever the page size. */
export function setPageCache(database: SQLite.Database): void {
  database.pragma(`cache_size = -${SQLITE_PAGE_CACHE_KIB}`);
}
