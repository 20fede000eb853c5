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

/**
 * A query Kysely builds and compiles once, then runs with new values each time. Kysely builds the
 * operation tree and compiles it to SQL on every call, which takes longer than SQLite takes to
 * run deskgate's small statements, and a user creation runs six to eight of them: preparing them
 * halved the data layer's CPU time per creation (docs/decisions/091-group-commit-on-sqlite.md).
 * `build` puts `param(name)` wherever a value goes; its SQL must not depend on the values.
 *
 * The compiled query is kept per Kysely instance (its dialect's adapter, which its transactions
 * share). A Kysely with plugins (osTicket's table prefix) gets the query compiled on every call,
 * as before: a plugin may rewrite each query differently.
 */
export function prepareQuery<DB, Values extends object, Row>(
  build: (db: Kysely<DB>, param: Param<Values>) => Compilable<Row>,
): PreparedQuery<DB, Values, Row> {
  const compiledFor = new WeakMap<object, CompiledQuery<Row>>();
  const param = ((name: string) => new Parameter(name)) as Param<Values>;
  return (db, values) => {
    const { adapter, plugins } = db.getExecutor();
    let compiled = plugins.length === 0 ? compiledFor.get(adapter) : undefined;
    if (!compiled) {
      compiled = build(db, param).compile();
      if (plugins.length === 0) compiledFor.set(adapter, compiled);
    }
    return db.executeQuery<Row>({
      ...compiled,
      parameters: compiled.parameters.map((p) =>
        p instanceof Parameter ? (values as Record<string, unknown>)[p.name] : p,
      ),
    });
  };
}
