import { CompiledQuery, type Kysely } from 'kysely';

/**
 * What a database's planner does with one statement, for the tables a test watches: which it
 * reads whole, which it reaches by an index seek, and whether it sorts rows of one of them.
 */
export interface PlanFindings {
  /** Watched tables read in full (a sequential scan or ALL; not an index walked in order). */
  fullScans: string[];
  /** Watched tables reached by an index seek: a range, an equality or a key look-up. */
  seeks: string[];
  /** Whether the rows of a watched table are sorted (filesort, temp B-tree, a Sort node). */
  sorted: boolean;
  /** The plan as the database printed it, for the failure message. */
  text: string;
}

/**
 * Records every statement `db` runs: its executor is shared by the query builders and the
 * prepared reads built on it, so this sees the SQL and values the data layer really sends.
 */
export function recordStatements(db: Kysely<object>): {
  during(action: () => Promise<unknown>): Promise<CompiledQuery[]>;
} {
  const executor = db.getExecutor();
  const run = executor.executeQuery.bind(executor);
  let recorded: CompiledQuery[] = [];
  Object.assign(executor, {
    executeQuery: (query: CompiledQuery, ...rest: unknown[]) => {
      recorded.push(query);
      return (run as (...args: unknown[]) => unknown)(query, ...rest);
    },
  });
  return {
    async during(action) {
      recorded = [];
      await action();
      const statements = recorded;
      recorded = [];
      return statements;
    },
  };
}

interface PostgresPlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  Filter?: string;
  Plans?: PostgresPlanNode[];
}

/** The plan tree as EXPLAIN's text form shows it, one node a line. */
function postgresText(node: PostgresPlanNode, depth = 0): string {
  const parts = [
    node['Node Type'],
    node['Relation Name'] && `on ${node['Relation Name']}`,
    node['Index Name'] && `using ${node['Index Name']}`,
    node['Index Cond'] && `index cond ${node['Index Cond']}`,
    node.Filter && `filter ${node.Filter}`,
  ].filter(Boolean);
  return [
    `${'  '.repeat(depth)}${parts.join(' ')}`,
    ...(node.Plans ?? []).map((child) => postgresText(child, depth + 1)),
  ].join('\n');
}

function postgresFindings(root: PostgresPlanNode, watched: ReadonlySet<string>): PlanFindings {
  const findings: PlanFindings = { fullScans: [], seeks: [], sorted: false, text: '' };
  const touchesWatched = (node: PostgresPlanNode): boolean =>
    (node['Relation Name'] !== undefined && watched.has(node['Relation Name'])) ||
    (node.Plans ?? []).some(touchesWatched);
  const visit = (node: PostgresPlanNode) => {
    const relation = node['Relation Name'];
    const type = node['Node Type'];
    if (relation && watched.has(relation)) {
      if (type === 'Seq Scan') findings.fullScans.push(relation);
      if (node['Index Cond'] !== undefined) findings.seeks.push(relation);
    }
    if (type === 'Bitmap Heap Scan' && relation && watched.has(relation)) {
      findings.seeks.push(relation);
    }
    if ((type === 'Sort' || type === 'Incremental Sort') && touchesWatched(node)) {
      findings.sorted = true;
    }
    for (const child of node.Plans ?? []) visit(child);
  };
  visit(root);
  return findings;
}

/**
 * Asks the database how it would run `statement` (EXPLAIN, with the statement's own values) and
 * reads the plan for the `watched` tables (their names as the database knows them).
 */
export async function explain(
  db: Kysely<object>,
  kind: 'sqlite' | 'postgres' | 'mysql',
  statement: CompiledQuery,
  watched: ReadonlySet<string>,
): Promise<PlanFindings> {
  const run = async <Row>(prefix: string) =>
    (
      await db.executeQuery<Row>(
        CompiledQuery.raw(`${prefix} ${statement.sql}`, [...statement.parameters]),
      )
    ).rows;
  if (kind === 'sqlite') {
    const rows = await run<{ detail: string }>('explain query plan');
    const findings: PlanFindings = {
      fullScans: [],
      seeks: [],
      sorted: false,
      text: rows.map((row) => row.detail).join('\n'),
    };
    let touches = false;
    for (const { detail } of rows) {
      const access = /^(SCAN|SEARCH) (\w+)(?: AS \w+)?(.*)$/.exec(detail);
      if (access && watched.has(access[2] as string)) {
        touches = true;
        const [, how, table, rest] = access as unknown as [string, string, string, string];
        if (how === 'SEARCH') findings.seeks.push(table);
        else if (!/USING (COVERING )?INDEX|USING INTEGER PRIMARY KEY/.test(rest)) {
          findings.fullScans.push(table);
        }
      }
    }
    findings.sorted = touches && rows.some((row) => /USE TEMP B-TREE/.test(row.detail));
    return findings;
  }
  if (kind === 'postgres') {
    const [row] = await run<{ 'QUERY PLAN': { Plan: PostgresPlanNode }[] }>(
      'explain (format json)',
    );
    const plan = (row as { 'QUERY PLAN': { Plan: PostgresPlanNode }[] })['QUERY PLAN'][0]
      ?.Plan as PostgresPlanNode;
    return { ...postgresFindings(plan, watched), text: postgresText(plan) };
  }
  const rows = await run<{ table: string | null; type: string | null; Extra: string | null }>(
    'explain',
  );
  const findings: PlanFindings = {
    fullScans: [],
    seeks: [],
    sorted: false,
    text: rows.map((row) => JSON.stringify(row)).join('\n'),
  };
  const touches = rows.some((row) => row.table !== null && watched.has(row.table));
  for (const row of rows) {
    if (row.table === null || !watched.has(row.table)) continue;
    if (row.type === 'ALL') findings.fullScans.push(row.table);
    if (['range', 'ref', 'eq_ref', 'const', 'ref_or_null'].includes(row.type ?? '')) {
      findings.seeks.push(row.table);
    }
  }
  findings.sorted = touches && rows.some((row) => /filesort|temporary/.test(row.Extra ?? ''));
  return findings;
}
