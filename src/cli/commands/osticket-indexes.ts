import { sql } from 'kysely';
import { openDatabase, redactUrl } from '../../data/open-database.ts';
import {
  addIndexSql,
  dropIndexSql,
  LARGE_TABLE_ROWS,
  type ReadIndexState,
  readIndexStates,
} from '../../data/osticket/osticket-indexes.ts';
import { type Command, CommandError, JSON_OPTION, printJson, UsageError } from '../command.ts';

/** The grant the admin has to give, or the one-line reason, when MySQL refuses an ALTER. */
function refusal(error: unknown): string | undefined {
  const code = (error as { code?: string }).code;
  if (code === 'ER_TABLEACCESS_DENIED_ERROR' || code === 'ER_DBACCESS_DENIED_ERROR') {
    return (error as Error).message;
  }
  return undefined;
}

function describeState(prefix: string, state: ReadIndexState): string {
  const { index } = state;
  const table = `${prefix}${index.table}`;
  if (state.present) return `present  ${table}.${index.column}`;
  const size =
    state.rows >= LARGE_TABLE_ROWS
      ? `about ${state.rows} rows: ${index.slows}`
      : `about ${state.rows} rows, small for now`;
  return `missing  ${table}.${index.column} (${size})\n  add:  ${addIndexSql(prefix, index)}\n  undo: ${dropIndexSql(prefix, index)}`;
}

export const osticketIndexes: Command = {
  name: 'osticket indexes',
  usage: 'deskgate osticket indexes [--apply] [--database URL] [--json]',
  summary:
    "osTicket mode: lists the indexes deskgate's reads need that osTicket's schema lacks (ticket.lastupdate, ticket.number, user.created), with the SQL that adds and removes each; --apply adds the missing ones (needs ALTER on those tables).",
  options: { ...JSON_OPTION, apply: { type: 'boolean', default: false } },
  positionals: 0,
  async run(input) {
    const { config } = input;
    if (config.schema !== 'osticket') {
      throw new UsageError(
        'osticket indexes works on an osTicket database: set DESKGATE_SCHEMA=osticket (and DESKGATE_DATABASE_URL to it)',
      );
    }
    const prefix = config.tablePrefix;
    const { db } = openDatabase<object>(config.databaseUrl, undefined, { serverTimeZone: true });
    try {
      let states = await readIndexStates(db, prefix);
      const added: string[] = [];
      if (input.values.apply) {
        for (const state of states.filter((candidate) => !candidate.present)) {
          const statement = addIndexSql(prefix, state.index);
          try {
            await sql.raw(statement).execute(db);
          } catch (error) {
            const reason = refusal(error);
            if (!reason) throw error;
            throw new CommandError(
              `${redactUrl(config.databaseUrl)} refused ${statement} (${reason}); an admin with ALTER on ${prefix}${state.index.table} can run it`,
            );
          }
          added.push(statement);
        }
        states = await readIndexStates(db, prefix);
      }
      if (input.values.json) {
        printJson(input, {
          added,
          indexes: states.map((state) => ({
            table: `${prefix}${state.index.table}`,
            column: state.index.column,
            name: state.index.name,
            present: state.present,
            rows: state.rows,
            slows: state.index.slows,
            add: addIndexSql(prefix, state.index),
            undo: dropIndexSql(prefix, state.index),
          })),
        });
        return;
      }
      const lines = [
        ...added.map((statement) => `added    ${statement}`),
        ...states.map((state) => describeState(prefix, state)),
      ];
      const missing = states.filter((state) => !state.present).length;
      lines.push(
        missing === 0
          ? "Every index deskgate's reads need is there."
          : `${missing} missing; \`deskgate osticket indexes --apply\` adds them (ALTER on the tables named).`,
      );
      input.out(`${lines.join('\n')}\n`);
    } finally {
      await db.destroy();
    }
  },
};
