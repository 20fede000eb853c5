import type { Generated, Kysely, Selectable } from 'kysely';
import { insertOwnRow } from '../common/insert-returning-id.ts';
import type { OwnTimestamps } from '../common/own-timestamps.ts';
import { rowExists } from '../common/row-exists.ts';
import type { OwnDepartmentTable } from '../departments/own-departments.ts';
import type { Dialect } from '../dialects/dialect.ts';
import { RejectedValueError } from '../store.ts';
import { formatTimestamp } from '../time.ts';
import type { Agent, NewAgent } from './agent.ts';

/** deskgate's `agents` (migration 006). */
export interface OwnAgentTable extends OwnTimestamps {
  id: Generated<number>;
  username: string;
  name: string;
  email: string;
  dept_id: number;
  is_active: number;
}

export interface OwnAgentTables {
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

export async function listAgents(db: Db): Promise<Agent[]> {
  return (await db.selectFrom('agents').selectAll().orderBy('id').execute()).map(toAgent);
}

/** An active agent of an existing department; the username is unique. */
export async function createAgent(db: Db, dialect: Dialect, agent: NewAgent): Promise<Agent> {
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
