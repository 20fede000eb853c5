import { type Kysely, sql } from 'kysely';
import { type ColumnMap, mappedColumns, sameNamedColumns } from '../common/column-map.ts';
import { flagIsSet } from '../common/flags.ts';
import type { OstDepartmentTable } from '../departments/osticket-departments.ts';
import { tablesOf } from '../entity.ts';
import { type OstConfigTable, readCoreSetting } from '../osticket/osticket-config.ts';
import type { OsticketTableRequirement } from '../osticket/osticket-requirements.ts';
import { RejectedValueError } from '../store.ts';
import type { OstTicketTable } from '../tickets/osticket-ticket-tables.ts';
import type { HelpTopicTable } from '../topics/osticket-topics.ts';
import {
  type NewSlaPlan,
  SLA_ACTIVE,
  type SlaPlan,
  type SlaPlanColumns,
  type SlaPlanRow,
  toSlaPlan,
} from './sla-plan.ts';

/** osTicket 1.18.1's `sla` (schema-1.18.1.sql). */
export interface OstSlaTable extends SlaPlanColumns {
  notes: string | null;
  created: string;
  updated: string;
}

interface Tables {
  sla: OstSlaTable;
  department: OstDepartmentTable;
  help_topic: HelpTopicTable;
  ticket: OstTicketTable;
  config: OstConfigTable;
}

const NOW = sql<string>`now()`;

/** osTicket's SLA plans; clients see the active ones. */
export const OSTICKET_SLA_PLANS: ColumnMap<OstSlaTable, SlaPlanRow, SlaPlan> = {
  table: 'sla',
  columns: {
    ...sameNamedColumns(
      'id',
      'schedule_id',
      'flags',
      'grace_period',
      'name',
      'notes',
      'created',
      'updated',
    ),
  },
  isPublic: () => flagIsSet('flags', SLA_ACTIVE),
  toDomain: toSlaPlan,
};

/**
 * sla/add in the write's transaction (its name checked free), as SLA::update does
 * (include/class.sla.php:155-220): created = updated = NOW().
 */
export async function insertOsticketSlaPlan(
  transaction: Kysely<object>,
  plan: NewSlaPlan,
): Promise<number> {
  const trx = tablesOf<Tables>(transaction);
  const { insertId } = await trx
    .insertInto('sla')
    .values({
      schedule_id: plan.scheduleId,
      flags: plan.flags,
      grace_period: plan.gracePeriod,
      name: plan.name,
      // The panel stores empty notes as NULL (Format::sanitize of '' is null).
      notes: plan.notes === '' ? null : plan.notes,
      created: NOW,
      updated: NOW,
    })
    .executeTakeFirstOrThrow();
  return Number(insertId);
}

/**
 * sla/delete in the write's one transaction, as SLA::delete does (include/class.sla.php:222-241):
 * never the default plan (`core.default_sla_id`); departments and topics on the plan go to 0,
 * its tickets to the default plan.
 */
export async function deleteOsticketSlaPlan(
  transaction: Kysely<object>,
  id: number,
): Promise<boolean> {
  const trx = tablesOf<Tables>(transaction);
  const fallback = Number((await readCoreSetting(transaction, 'default_sla_id')) ?? 0) || 0;
  if (id === fallback) throw new RejectedValueError('id', 'is the default SLA plan');
  const deleted = await trx.deleteFrom('sla').where('id', '=', id).executeTakeFirst();
  if (Number(deleted.numDeletedRows) === 0) return false;
  await trx.updateTable('department').set({ sla_id: 0 }).where('sla_id', '=', id).execute();
  await trx.updateTable('help_topic').set({ sla_id: 0 }).where('sla_id', '=', id).execute();
  await trx.updateTable('ticket').set({ sla_id: fallback }).where('sla_id', '=', id).execute();
  return true;
}

export const OSTICKET_SLA_TABLES: readonly OsticketTableRequirement[] = [
  { table: 'sla', privileges: ['SELECT'], columns: mappedColumns(OSTICKET_SLA_PLANS) },
  { table: 'config', privileges: ['SELECT'], columns: ['namespace', 'key', 'value'] },
  // sla/add and sla/delete, whose cascade moves departments, topics and tickets off the plan.
  { table: 'sla', privileges: ['INSERT', 'DELETE'], adminOnly: true },
  { table: 'department', privileges: ['UPDATE'], columns: ['sla_id'], adminOnly: true },
  { table: 'help_topic', privileges: ['UPDATE'], columns: ['sla_id'], adminOnly: true },
  { table: 'ticket', privileges: ['UPDATE'], columns: ['sla_id'], adminOnly: true },
];
