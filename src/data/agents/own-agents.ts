import type { Kysely, Selectable } from 'kysely';
import type { Agent, NewAgent } from '../../domain.ts';
import { insertReturningId } from '../common/insert-returning-id.ts';
import type { Dialect } from '../dialects/dialect.ts';
import { type OwnHandle, tablesOf } from '../entity.ts';
import { RejectedValueError } from '../store.ts';
import type { AgentTable, OwnTicketTables } from '../tickets/own-tickets.ts';
import { formatTimestamp, now } from '../time.ts';
import type { AgentData } from './agents.ts';

type Db = Kysely<OwnTicketTables>;

function toAgent(row: Selectable<AgentTable>): Agent {
  return {
    id: Number(row.id),
    username: row.username,
    name: row.name,
    email: row.email,
    deptId: Number(row.dept_id),
    isActive: Number(row.is_active) === 1,
    created: formatTimestamp(row.created_at),
  };
}

export async function listAgents(db: Db): Promise<Agent[]> {
  return (await db.selectFrom('agents').selectAll().orderBy('id').execute()).map(toAgent);
}

/** An active agent of an existing department; the username is unique. */
export async function createAgent(db: Db, dialect: Dialect, agent: NewAgent): Promise<Agent> {
  const id = await dialect.writeTransaction(db, async (trx) => {
    const department = await trx
      .selectFrom('departments')
      .select('id')
      .where('id', '=', agent.deptId)
      .executeTakeFirst();
    if (!department) throw new RejectedValueError('dept', 'is not an existing department');
    const taken = await trx
      .selectFrom('agents')
      .select('id')
      .where('username', '=', agent.username)
      .executeTakeFirst();
    if (taken) throw new RejectedValueError('username', 'is taken by another agent');
    const at = now();
    return insertReturningId(
      trx.insertInto('agents').values({
        username: agent.username,
        name: agent.name,
        email: agent.email,
        dept_id: agent.deptId,
        is_active: 1,
        created_at: at,
        updated_at: at,
      }),
      dialect,
    );
  });
  const row = await db
    .selectFrom('agents')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return toAgent(row);
}

export function makeOwnAgents(handle: OwnHandle): AgentData {
  const db = tablesOf<OwnTicketTables>(handle.db);
  return {
    createAgent: (agent) => createAgent(db, handle.dialect, agent),
    listAgents: () => listAgents(db),
  };
}
