import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A database a test owns for its lifetime. */
export interface TestDatabase {
  url: string;
  /** Path of the SQLite file, for tests that inspect the bytes on disk. */
  sqlitePath?: string;
  drop(): Promise<void>;
}

export interface DatabaseKind {
  name: 'sqlite' | 'postgres' | 'mysql';
  create(): Promise<TestDatabase>;
}

const sqlite: DatabaseKind = {
  name: 'sqlite',
  async create() {
    const dir = mkdtempSync(join(tmpdir(), 'deskgate-test-'));
    const path = join(dir, 'deskgate.db');
    return {
      url: `sqlite:${path}`,
      sqlitePath: path,
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  },
};

/** Every database the suite runs against on this machine. SQLite always. */
export const DATABASES: readonly DatabaseKind[] = [sqlite];
