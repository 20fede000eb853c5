import type { Generated, Kysely, Selectable } from 'kysely';
import type { CatalogueListQuery, CatalogueVisibility, NewSlaPlan, SlaPlan } from '../../domain.ts';
import { catalogueRange } from '../common/catalogue-page.ts';
import { insertReturningId } from '../common/insert-returning-id.ts';
import type { Dialect } from '../dialects/dialect.ts';
import { type OwnHandle, tablesOf } from '../entity.ts';
import { RejectedValueError } from '../store.ts';
import { now } from '../time.ts';
import { SLA_ACTIVE, type SlaPlanData } from './sla-plans.ts';

/** deskgate's `sla_plans` (migrations 006 and 007). */
export interface OwnSlaPlanTable {
  id: Generated<number>;
  name: string;
  grace_period: number;
  flags: number;
  schedule_id: number;
  notes: string;
  created_at: string;
  updated_at: string;
}

interface Tables {
  sla_plans: OwnSlaPlanTable;
  departments: { id: number; sla_id: number };
  tickets: { id: number; sla_id: number };
}
type Db = Kysely<Tables>;

/** The default plan of deskgate's schema: the first (migration 006 seeds it as id 1). */
const DEFAULT_SLA_ID = 1;

function toSlaPlan(row: Selectable<OwnSlaPlanTable>): SlaPlan {
  return {
    id: Number(row.id),
    name: row.name,
    flags: Number(row.flags),
    gracePeriod: Number(row.grace_period),
    scheduleId: Number(row.schedule_id),
    notes: row.notes,
    created: row.created_at,
    updated: row.updated_at,
  };
}

function visible(db: Db, visibility: CatalogueVisibility) {
  const select = db.selectFrom('sla_plans').selectAll();
  // Bit 0x1 is active: an odd flags value.
  return visibility === 'all'
    ? select
    : select.where((eb) => eb(eb('flags', '%', 2), '=', SLA_ACTIVE));
}

async function findSlaPlan(db: Db, id: number, visibility: CatalogueVisibility) {
  const row = await visible(db, visibility).where('id', '=', id).executeTakeFirst();
  return row && toSlaPlan(row);
}

async function listSlaPlans(db: Db, query: CatalogueListQuery): Promise<SlaPlan[]> {
  const rows = await catalogueRange(
    visible(db, query.visibility),
    { id: 'id', created: 'created_at', name: 'name' },
    query,
  ).execute();
  return rows.map(toSlaPlan);
}

async function insertSlaPlan(trx: Db, dialect: Dialect, plan: NewSlaPlan): Promise<number> {
  const taken = await trx
    .selectFrom('sla_plans')
    .select('id')
    .where('name', '=', plan.name)
    .executeTakeFirst();
  if (taken) throw new RejectedValueError('name', 'is already the name of an SLA plan');
  const at = now();
  return insertReturningId(
    trx.insertInto('sla_plans').values({
      name: plan.name,
      grace_period: plan.gracePeriod,
      flags: plan.flags,
      schedule_id: plan.scheduleId,
      notes: plan.notes,
      created_at: at,
      updated_at: at,
    }),
    dialect,
  );
}

async function deleteSlaPlan(trx: Db, id: number): Promise<boolean> {
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

/** SLA plans on deskgate's own schema. */
export function makeOwnSlaPlans(handle: OwnHandle): SlaPlanData {
  const db = tablesOf<Tables>(handle.db);
  const { dialect } = handle;
  return {
    findSlaPlan: (id, visibility) => findSlaPlan(db, id, visibility),
    listSlaPlans: (query) => listSlaPlans(db, query),
    insertSlaPlan: (trx, plan) => insertSlaPlan(tablesOf<Tables>(trx), dialect, plan),
    deleteSlaPlan: (trx, id) => deleteSlaPlan(tablesOf<Tables>(trx), id),
    async addSlaPlan(plan) {
      const id = await dialect.writeTransaction(handle.db, (trx) =>
        insertSlaPlan(tablesOf<Tables>(trx), dialect, plan),
      );
      const added = await findSlaPlan(db, id, 'all');
      if (!added) throw new Error(`SLA plan ${id} vanished after its creation`);
      return added;
    },
  };
}
