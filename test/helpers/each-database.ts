import { after, before, describe, type TestOptions } from 'node:test';
import {
  createOsticketDatabase,
  OSTICKET_SKIP,
  type OsticketDatabase,
  osticketEnv,
} from '../osticket/osticket-database.ts';
import { DATABASES, type DatabaseKind, type TestDatabase } from './databases.ts';

/**
 * The database of one suite, created in its `before` hook and dropped after everything else in
 * it (servers included) has closed. Read `url` inside hooks and tests, not while declaring them.
 */
export interface SuiteDatabase {
  readonly kind: DatabaseKind['name'];
  readonly url: string;
  /** Path of the SQLite file, for tests that inspect the bytes on disk. */
  readonly sqlitePath: string | undefined;
}

/**
 * A database of `kind` for the enclosing suite, created in a `before` hook. Call `drop()` last in
 * the suite's body, so that it runs after the hooks that stop its servers (after hooks run in the
 * order they are declared); describeEachDatabase and describeWithDatabase do this for you.
 */
export function useDatabase(kind: DatabaseKind): { database: SuiteDatabase; drop: () => void } {
  let created: TestDatabase | undefined;
  before(async () => {
    created = await kind.create();
  });
  const database: SuiteDatabase = {
    kind: kind.name,
    get url() {
      if (!created) throw new Error('the suite database is created in a before hook: use it there');
      return created.url;
    },
    get sqlitePath() {
      return created?.sqlitePath;
    },
  };
  // Registered by the caller after the suite's own hooks: after hooks run in the order declared.
  const drop = () =>
    after(async () => {
      await created?.drop();
    });
  return { database, drop };
}

/**
 * `describe(\`${name} on ${kind}\`)` for SQLite, and for PostgreSQL and MySQL/MariaDB when their
 * URLs are set (test/databases.test.ts lists the ones left out). Each suite gets a database of its
 * own, dropped once the suite's servers have stopped.
 */
export function describeEachDatabase(
  name: string,
  fn: (database: SuiteDatabase, kind: DatabaseKind) => void,
): void;
export function describeEachDatabase(
  name: string,
  options: TestOptions,
  fn: (database: SuiteDatabase, kind: DatabaseKind) => void,
): void;
export function describeEachDatabase(
  name: string,
  ...args:
    | [fn: (database: SuiteDatabase, kind: DatabaseKind) => void]
    | [options: TestOptions, fn: (database: SuiteDatabase, kind: DatabaseKind) => void]
): void {
  const [options, fn] = args.length === 1 ? [{}, args[0]] : args;
  for (const kind of DATABASES) {
    describe(`${name} on ${kind.name}`, options, () => {
      const { database, drop } = useDatabase(kind);
      fn(database, kind);
      drop();
    });
  }
}

/** SQLite, which every run has: for suites whose subject does not depend on the database. */
export const SQLITE: DatabaseKind = DATABASES.find(
  (kind) => kind.name === 'sqlite',
) as DatabaseKind;

/** `describe(name)` with a database of `kind` of its own, dropped once the suite's servers have stopped. */
export function describeWithDatabase(
  name: string,
  kind: DatabaseKind,
  fn: (database: SuiteDatabase) => void,
): void {
  describe(name, () => {
    const { database, drop } = useDatabase(kind);
    fn(database);
    drop();
  });
}

/** The database of one suite of describeEachDatabaseKind: deskgate's own schema, or osTicket's. */
export interface KindDatabase {
  readonly kind: DatabaseKind['name'] | 'osticket';
  readonly url: string;
  /** What the server needs besides the URL (osTicket mode: the schema and the table prefix). */
  readonly env: Record<string, string>;
  /** osTicket mode's database (its keys are osTicket's own); undefined on deskgate's schema. */
  readonly osticket: OsticketDatabase | undefined;
}

const KIND_URL_VARIABLES: Record<'postgres' | 'mysql', string> = {
  postgres: 'DESKGATE_TEST_POSTGRES_URL',
  mysql: 'DESKGATE_TEST_MYSQL_URL',
};

/**
 * `describe(\`${name} on ${kind}\`)` for each kind of database deskgate serves: SQLite,
 * PostgreSQL, MySQL/MariaDB (own schema) and osTicket mode on osTicket 1.18.1's real schema. A
 * kind this machine lacks is a skipped suite that says why.
 */
export function describeEachDatabaseKind(name: string, fn: (database: KindDatabase) => void): void {
  for (const kind of ['sqlite', 'postgres', 'mysql'] as const) {
    const found = DATABASES.find((candidate) => candidate.name === kind);
    if (!found) {
      const variable = KIND_URL_VARIABLES[kind as 'postgres' | 'mysql'];
      describe(`${name} on ${kind}`, { skip: `skipped: ${variable} is not set` }, () => {});
      continue;
    }
    describe(`${name} on ${kind}`, () => {
      const { database, drop } = useDatabase(found);
      fn({
        kind,
        get url() {
          return database.url;
        },
        env: {},
        osticket: undefined,
      });
      drop();
    });
  }
  describe(`${name} on osticket`, { skip: OSTICKET_SKIP }, () => {
    let created: OsticketDatabase | undefined;
    before(async () => {
      created = await createOsticketDatabase();
    });
    const current = (): OsticketDatabase => {
      if (!created)
        throw new Error('the osTicket database is created in a before hook: use it there');
      return created;
    };
    fn({
      kind: 'osticket',
      get url() {
        return current().url;
      },
      get env() {
        return osticketEnv(current());
      },
      get osticket() {
        return current();
      },
    });
    after(async () => {
      await created?.drop();
    });
  });
}
