import type { Compilable, CompiledQuery, Kysely } from 'kysely';

/** Runs a compiled read-only statement and resolves to its rows. */
export type RunRead = <Row>(query: CompiledQuery<Row>) => Promise<Row[]>;

/**
 * Where the prepared reads of a store run: `db` compiles them (with its plugins, e.g. osTicket's
 * table prefix) and `run` executes them, on SQLite's read connection or through Kysely's executor.
 */
export interface Reader<DB> {
  readonly db: Kysely<DB>;
  readonly run: RunRead;
}

/** A Reader that runs through `db`'s own executor (its pool, its plugins); or through `run` where the database has a faster path. */
export function makeReader<DB>(db: Kysely<DB>, run?: RunRead): Reader<DB> {
  return { db, run: run ?? (async (query) => (await db.executeQuery(query)).rows) };
}

function compileWithSample<Row>(
  query: CompiledQuery<Row>,
  sample: readonly unknown[],
): CompiledQuery<Row> {
  const { parameters } = query;
  const matches =
    new Set(sample).size === sample.length &&
    parameters.length === sample.length &&
    parameters.every((value, i) => Object.is(value, sample[i]));
  if (!matches) {
    throw new Error(
      `preparedRead: the query's parameters (${JSON.stringify(parameters)}) must be the distinct sample values in order (${JSON.stringify(sample)})`,
    );
  }
  return query;
}

/**
 * A read query built and compiled once per database, then run with new parameter values. Kysely
 * builds and compiles a query on every call, which costs more than SQLite takes to answer a
 * look-up by key; the hot look-ups (topic by id, API key by digest) are prepared instead.
 * `build` is called once with `sample`, whose values must be distinct and come back as the
 * compiled query's parameters in the same order (checked): they are then swapped for the real
 * ones. Values that would be inlined into the SQL (limits, sort directions) cannot be
 * parameters here.
 */
export function preparedRead<DB, Params extends readonly unknown[], Row>(
  build: (db: Kysely<DB>, ...params: Params) => Compilable<Row>,
  sample: Params,
): (reader: Reader<DB>, ...params: Params) => Promise<Row[]> {
  const compiled = new WeakMap<Kysely<DB>, CompiledQuery<Row>>();
  return (reader, ...params) => {
    let query = compiled.get(reader.db);
    if (!query) {
      query = compileWithSample(build(reader.db, ...sample).compile(), sample);
      compiled.set(reader.db, query);
    }
    return reader.run({ ...query, parameters: params });
  };
}
