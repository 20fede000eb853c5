import type { Compilable, CompiledQuery, Kysely, QueryResult } from 'kysely';

/** Stands for a value given when a prepared query runs. */
class Parameter {
  readonly name: string;
  constructor(name: string) {
    this.name = name;
  }
}

/** `param('name')`: the place of `values.name` in a prepared query, typed as that value. */
export type Param<Values> = <Name extends keyof Values & string>(name: Name) => Values[Name];

/** A query built once, run with `values`. */
export type PreparedQuery<DB, Values, Row> = (
  db: Kysely<DB>,
  values: Values,
) => Promise<QueryResult<Row>>;

/** Runs a compiled read-only statement and resolves to its rows, which may be shared: read-only. */
export type RunRead = <Row>(query: CompiledQuery<Row>) => Promise<readonly Row[]>;

/**
 * Where a store's prepared reads run: `db` compiles them (with its plugins, e.g. osTicket's table
 * prefix) and `run` executes them, on SQLite's read connection or through Kysely's executor.
 */
export interface Reader<DB> {
  readonly db: Kysely<DB>;
  readonly run: RunRead;
}

/** Reads run through `db`'s executor: its pool (or SQLite's queued connection) and its plugins. */
export function readThrough<DB>(db: Kysely<DB>): RunRead {
  return async (query) => (await db.executeQuery(query)).rows;
}

/** A Reader that runs through `db`'s executor, or through `run` where the database has a faster way. */
export function makeReader<DB>(db: Kysely<DB>, run?: RunRead): Reader<DB> {
  return { db, run: run ?? readThrough(db) };
}

/**
 * Builds `build`'s query once per database and returns it compiled, with `values` in the places
 * of its parameters. The compiled query is kept per dialect adapter, which a database's
 * transactions share; a Kysely with plugins (osTicket's table prefix) keeps its own, as each
 * plugin rewrites a query the same way every time.
 */
function compiler<DB, Values extends object, Row>(
  build: (db: Kysely<DB>, param: Param<Values>) => Compilable<Row>,
): (db: Kysely<DB>, values: Values) => CompiledQuery<Row> {
  const compiledFor = new WeakMap<object, CompiledQuery<Row>>();
  const param = ((name: string) => new Parameter(name)) as Param<Values>;
  return (db, values) => {
    const { adapter, plugins } = db.getExecutor();
    const owner = plugins.length === 0 ? adapter : db;
    let compiled = compiledFor.get(owner);
    if (!compiled) {
      compiled = build(db, param).compile();
      compiledFor.set(owner, compiled);
    }
    return {
      ...compiled,
      parameters: compiled.parameters.map((p) =>
        p instanceof Parameter ? (values as Record<string, unknown>)[p.name] : p,
      ),
    };
  };
}

/**
 * A query Kysely builds and compiles once, then runs with new values each time. Kysely builds the
 * operation tree and compiles it to SQL on every call, which takes longer than SQLite takes to
 * run deskgate's small statements: a topic look-up's one query, a user creation's six to eight
 * (docs/decisions/091-group-commit-on-sqlite.md, 092-prepared-reads-and-a-sqlite-read-connection.md).
 * `build` puts `param(name)` wherever a value goes; its SQL must not depend on the values.
 */
export function prepareQuery<DB, Values extends object, Row>(
  build: (db: Kysely<DB>, param: Param<Values>) => Compilable<Row>,
): PreparedQuery<DB, Values, Row> {
  const compile = compiler(build);
  return (db, values) => db.executeQuery<Row>(compile(db, values));
}

/**
 * A prepared query that only reads, run where the store's reads run (`Reader`): on SQLite a
 * connection of its own that answers at once, elsewhere the pool.
 */
export function prepareRead<DB, Values extends object, Row>(
  build: (db: Kysely<DB>, param: Param<Values>) => Compilable<Row>,
): (reader: Reader<DB>, values: Values) => Promise<readonly Row[]> {
  const compile = compiler(build);
  return (reader, values) => reader.run(compile(reader.db, values));
}
