import type { Kysely, Selectable } from 'kysely';
import { insertOwnRow } from '../common/insert-returning-id.ts';
import { rowExists } from '../common/row-exists.ts';
import type { OwnDepartmentTable } from '../departments/own-departments.ts';
import type { Dialect } from '../dialects/dialect.ts';
import { defineEntity, tablesOf } from '../entity.ts';
import { RejectedValueError } from '../store.ts';
import { formatTimestamp } from '../time.ts';
import type { OwnAgentTable } from './agent-tables.ts';

/** An agent (staff member) whom ticket/reply and ticket/close act as. */
export interface Agent {
  id: number;
  username: string;
  name: string;
  email: string;
  deptId: number;
  isActive: boolean;
  created: string;
}

export interface NewAgent {
  username: string;
  name: string;
  email: string;
  deptId: number;
}

/** Agents (staff): whom ticket/reply and ticket/close act as. */
export interface AgentData {
  /** An active agent of an existing department; RejectedValueError for a taken username or an unknown department. */
  createAgent(agent: NewAgent): Promise<Agent>;
  listAgents(): Promise<Agent[]>;
}

interface OwnAgentTables {
  agents: OwnAgentTable;
  departments: OwnDepartmentTable;
}

type Db = Kysely<OwnAgentTables>;

function toAgent(row: Selectable<OwnAgentTable>): Agent {
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

async function listAgents(db: Db): Promise<Agent[]> {
  return (await db.selectFrom('agents').selectAll().orderBy('id').execute()).map(toAgent);
}

/** An active agent of an existing department; the username is unique. */
async function createAgent(db: Db, dialect: Dialect, agent: NewAgent): Promise<Agent> {
  const id = await dialect.writeTransaction(db, async (trx) => {
    if (!(await rowExists(trx, 'departments', 'id', agent.deptId))) {
      throw new RejectedValueError('dept', 'is not an existing department');
    }
    if (await rowExists(trx, 'agents', 'username', agent.username)) {
      throw new RejectedValueError('username', 'is taken by another agent');
    }
    return insertOwnRow(trx, dialect, 'agents', {
      username: agent.username,
      name: agent.name,
      email: agent.email,
      dept_id: agent.deptId,
      is_active: 1,
    });
  });
  const row = await db
    .selectFrom('agents')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return toAgent(row);
}

/**
 * An entity of deskgate's own schema only: in osTicket mode the agents are osTicket's staff,
 * managed in its admin panel, and `data(agents)` is undefined.
 */
export const agents = defineEntity<AgentData | undefined>({
  name: 'agents',
  own(handle) {
    const db = tablesOf<OwnAgentTables>(handle.db);
    return {
      createAgent: (agent) => createAgent(db, handle.dialect, agent),
      listAgents: () => listAgents(db),
    };
  },
  osticket: () => undefined,
  osticketRequires: { comment: 'agents: none (osTicket manages its staff)', tables: [] },
});
