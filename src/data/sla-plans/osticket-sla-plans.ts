import { type Generated, type Kysely, type Selectable, sql } from 'kysely';
import type { CatalogueListQuery, CatalogueVisibility, SlaPlan } from '../../domain.ts';
import { catalogueRange } from '../common/catalogue-page.ts';
import { type OsticketHandle, tablesOf } from '../entity.ts';
import { managedByOsticket } from '../osticket/managed-by-osticket.ts';
import type { OsticketTableRequirement } from '../osticket/osticket-requirements.ts';
import { RejectedValueError } from '../store.ts';
import { formatTimestamp } from '../time.ts';
import { SLA_ACTIVE, type SlaPlanData } from './sla-plans.ts';

/** osTicket 1.18.1's `sla` (schema-1.18.1.sql). */
export interface OstSlaTable {
  id: Generated<number>;
  schedule_id: number;
  flags: number;
  grace_period: number;
  name: string;
  notes: string | null;
  created: string;
  updated: string;
}

interface Tables {
  sla: OstSlaTable;
  department: { id: number; sla_id: number };
  help_topic: { topic_id: number; sla_id: number };
  ticket: { ticket_id: number; sla_id: number };
  config: { id: number; namespace: string; key: string; value: string };
}
type Db = Kysely<Tables>;

const NOW = sql<string>`now()`;
const COLUMNS = [
  'id',
  'schedule_id',
  'flags',
  'grace_period',
  'name',
  'notes',
  'created',
  'updated',
] as const;

function toSlaPlan(row: Selectable<OstSlaTable>): SlaPlan {
  return {
    id: Number(row.id),
    name: row.name,
    flags: Number(row.flags),
    gracePeriod: Number(row.grace_period),
    scheduleId: Number(row.schedule_id),
    notes: row.notes,
    created: formatTimestamp(row.created),
    updated: formatTimestamp(row.updated),
  };
}

function visible(db: Db, visibility: CatalogueVisibility) {
  const select = db.selectFrom('sla').select(COLUMNS);
  return visibility === 'all' ? select : select.where(sql<boolean>`(flags & ${SLA_ACTIVE}) <> 0`);
}

async function listSlaPlans(db: Db, query: CatalogueListQuery): Promise<SlaPlan[]> {
  const rows = await catalogueRange(
    visible(db, query.visibility),
    { id: 'id', created: 'created', name: 'name' },
    query,
  ).execute();
  return rows.map(toSlaPlan);
}

/** The help desk's default plan (`core.default_sla_id`); 0 when unset. */
async function defaultSlaId(db: Db): Promise<number> {
  const row = await db
    .selectFrom('config')
    .select('value')
    .where('namespace', '=', 'core')
    .where('key', '=', 'default_sla_id')
    .executeTakeFirst();
  return Number(row?.value ?? 0) || 0;
}

export const OSTICKET_SLA_TABLES: readonly OsticketTableRequirement[] = [
  { table: 'sla', privileges: ['SELECT'], columns: [...COLUMNS] },
  { table: 'config', privileges: ['SELECT'], columns: ['namespace', 'key', 'value'] },
  // sla/add and sla/delete, whose cascade moves departments, topics and tickets off the plan.
  { table: 'sla', privileges: ['INSERT', 'DELETE'], adminOnly: true },
  { table: 'department', privileges: ['UPDATE'], columns: ['sla_id'], adminOnly: true },
  { table: 'help_topic', privileges: ['UPDATE'], columns: ['sla_id'], adminOnly: true },
  { table: 'ticket', privileges: ['UPDATE'], columns: ['sla_id'], adminOnly: true },
];

/** SLA plans of an osTicket database: read, and sla/add and sla/delete as its admin panel does. */
export function makeOsticketSlaPlans(handle: OsticketHandle): SlaPlanData {
  const db = tablesOf<Tables>(handle.db);
  return {
    async findSlaPlan(id, visibility) {
      const row = await visible(db, visibility).where('id', '=', id).executeTakeFirst();
      return row && toSlaPlan(row);
    },
    listSlaPlans: (query) => listSlaPlans(db, query),
    // SLA::update (include/class.sla.php:155-220): unique name, created = updated = NOW().
    async insertSlaPlan(transaction, plan) {
      const trx = tablesOf<Tables>(transaction);
      const taken = await trx
        .selectFrom('sla')
        .select('id')
        .where('name', '=', plan.name)
        .executeTakeFirst();
      if (taken) throw new RejectedValueError('name', 'is already the name of an SLA plan');
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
    },
    // SLA::delete (include/class.sla.php:222-241), in the write's one transaction.
    async deleteSlaPlan(transaction, id) {
      const trx = tablesOf<Tables>(transaction);
      const fallback = await defaultSlaId(trx);
      if (id === fallback) throw new RejectedValueError('id', 'is the default SLA plan');
      const deleted = await trx.deleteFrom('sla').where('id', '=', id).executeTakeFirst();
      if (Number(deleted.numDeletedRows) === 0) return false;
      await trx.updateTable('department').set({ sla_id: 0 }).where('sla_id', '=', id).execute();
      await trx.updateTable('help_topic').set({ sla_id: 0 }).where('sla_id', '=', id).execute();
      await trx.updateTable('ticket').set({ sla_id: fallback }).where('sla_id', '=', id).execute();
      return true;
    },
    addSlaPlan: managedByOsticket('SLA plans'),
  };
}
