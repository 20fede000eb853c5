import type { Kysely } from 'kysely';
import { type ColumnMap, ownColumns } from '../common/column-map.ts';
import { insertOwnRow } from '../common/insert-returning-id.ts';
import type { OwnTimestamps } from '../common/own-timestamps.ts';
import type { OwnDepartmentTable } from '../departments/own-departments.ts';
import type { Dialect } from '../dialects/dialect.ts';
import { tablesOf } from '../entity.ts';
import { RejectedValueError } from '../store.ts';
import type { TicketTable } from '../tickets/own-tickets.ts';
import type { NewSlaPlan, SlaPlan, SlaPlanColumns, SlaPlanRow } from './sla-plan.ts';
import { SLA_ACTIVE, toSlaPlan } from './sla-plan.ts';

/** deskgate's `sla_plans` (migrations 006 and 008). */
export interface OwnSlaPlanTable extends SlaPlanColumns, OwnTimestamps {
  notes: string;
}

interface Tables {
  sla_plans: OwnSlaPlanTable;
  departments: OwnDepartmentTable;
  tickets: TicketTable;
}

/** The default plan of deskgate's schema: the first (migration 006 seeds it as id 1). */
const DEFAULT_SLA_ID = 1;

/** SLA plans on deskgate's own schema; clients see the active ones. */
export const OWN_SLA_PLANS: ColumnMap<OwnSlaPlanTable, SlaPlanRow, SlaPlan> = {
  table: 'sla_plans',
  columns: ownColumns('id', 'name', 'flags', 'grace_period', 'schedule_id', 'notes'),
  // Bit 0x1 is active: an odd flags value.
  isPublic: (eb) => eb(eb('flags', '%', 2), '=', SLA_ACTIVE),
  toDomain: toSlaPlan,
};

/** sla/add in the write's transaction (its name checked free). */
export async function insertOwnSlaPlan(
  transaction: Kysely<object>,
  dialect: Dialect,
  plan: NewSlaPlan,
): Promise<number> {
  const trx = tablesOf<Tables>(transaction);
  return insertOwnRow(trx, dialect, 'sla_plans', {
    name: plan.name,
    grace_period: plan.gracePeriod,
    flags: plan.flags,
    schedule_id: plan.scheduleId,
    notes: plan.notes,
  });
}

/** sla/delete in the write's transaction: departments on the plan go to 0, tickets to the default. */
export async function deleteOwnSlaPlan(transaction: Kysely<object>, id: number): Promise<boolean> {
  const trx = tablesOf<Tables>(transaction);
  if (id === DEFAULT_SLA_ID) throw new RejectedValueError('id', 'is the default SLA plan');
  const deleted = await trx.deleteFrom('sla_plans').where('id', '=', id).executeTakeFirst();
  if (Number(deleted.numDeletedRows) === 0) return false;
  await trx.updateTable('departments').set({ sla_id: 0 }).where('sla_id', '=', id).execute();
  await trx
    .updateTable('tickets')
    .set({ sla_id: DEFAULT_SLA_ID })
    .where('sla_id', '=', id)
    .execute();
  return true;
}
