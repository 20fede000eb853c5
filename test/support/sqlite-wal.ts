import { readFileSync } from 'node:fs';

/** What a SQLite write-ahead log holds since it was last started over. */
export interface WalCommits {
  /** The log's salt: it changes when SQLite starts the log over after a checkpoint. */
  salt: string;
  /** Transactions committed into the log. */
  commits: number;
}

const WAL_HEADER_BYTES = 32;
const FRAME_HEADER_BYTES = 24;

/**
 * Counts the transactions committed into `databasePath`'s write-ahead log, from the file's bytes
 * (https://sqlite.org/fileformat.html#the_write_ahead_log): the last frame a transaction writes
 * carries the database size in its header, every other frame 0. Frames with another salt are
 * left over from before the log started over, and end the count. The server's own connection is
 * not disturbed: this reads the file, it does not open the database.
 */
export function countWalCommits(databasePath: string): WalCommits {
  let wal: Buffer;
  try {
    wal = readFileSync(`${databasePath}-wal`);
  } catch {
    return { salt: '', commits: 0 };
  }
  if (wal.length < WAL_HEADER_BYTES) return { salt: '', commits: 0 };
  const pageSize = wal.readUInt32BE(8);
  const salt = wal.subarray(16, 24);
  let commits = 0;
  for (
    let frame = WAL_HEADER_BYTES;
    frame + FRAME_HEADER_BYTES + pageSize <= wal.length;
    frame += FRAME_HEADER_BYTES + pageSize
  ) {
    if (!wal.subarray(frame + 8, frame + 16).equals(salt)) break;
    if (wal.readUInt32BE(frame + 4) !== 0) commits++;
  }
  return { salt: salt.toString('hex'), commits };
}
