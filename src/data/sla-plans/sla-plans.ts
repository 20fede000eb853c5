import { type CatalogueReads, catalogueReads, insertAndRead } from '../common/catalogue-page.ts';
import { type ColumnMap, hasRowWith } from '../common/column-map.ts';
import { defineEntity, type WriteTransaction } from '../entity.ts';
import { RejectedValueError } from '../store.ts';
import {
  deleteOsticketSlaPlan,
  insertOsticketSlaPlan,
  OSTICKET_SLA_PLANS,
  OSTICKET_SLA_TABLES,
} from './osticket-sla-plans.ts';
import { deleteOwnSlaPlan, insertOwnSlaPlan, OWN_SLA_PLANS } from './own-sla-plans.ts';
import type { NewSlaPlan, SlaPlan, SlaPlanRow } from './sla-plan.ts';

/**
 * SLA plans as operations and commands see them: `find` and `list` read them (under `public`
 * visibility active plans only).
 */
export interface SlaPlanData extends CatalogueReads<SlaPlan> {
  /** sla/add in the write's transaction; a taken name → RejectedValueError('name'). */
  insertSlaPlan(trx: WriteTransaction, plan: NewSlaPlan): Promise<number>;
  /**
   * sla/delete in the write's transaction, as osTicket deletes a plan: not the default plan
   * (RejectedValueError('id')); departments and topics on it go to 0, tickets to the default.
   * Resolves to false when there is no such plan.
   */
  deleteSlaPlan(trx: WriteTransaction, id: number): Promise<boolean>;
  /** `deskgate sla add`. deskgate's own schema only: in osTicket mode its admin panel adds them. */
  readonly addSlaPlan?: (plan: NewSlaPlan) => Promise<SlaPlan>;
}

/** sla/add's rule in both layouts, as osTicket's SLA::update checks it: a plan's name is unique. */
async function assertNameFree<Table>(
  trx: WriteTransaction,
  map: ColumnMap<Table, SlaPlanRow, SlaPlan>,
  name: string,
): Promise<void> {
  if (await hasRowWith(trx, map, 'name', name)) {
    throw new RejectedValueError('name', 'is already the name of an SLA plan');
  }
}

export const slaPlans = defineEntity<SlaPlanData>({
  name: 'sla-plans',
  own(handle) {
    const reads = catalogueReads(handle.db, OWN_SLA_PLANS);
    const insert = async (trx: WriteTransaction, plan: NewSlaPlan) => {
      await assertNameFree(trx, OWN_SLA_PLANS, plan.name);
      return insertOwnSlaPlan(trx, handle.dialect, plan);
    };
    return {
      ...reads,
      insertSlaPlan: insert,
      deleteSlaPlan: deleteOwnSlaPlan,
      addSlaPlan: (plan) => insertAndRead(handle, reads, (trx) => insert(trx, plan)),
    };
  },
  osticket(handle) {
    return {
      ...catalogueReads(handle.db, OSTICKET_SLA_PLANS),
      async insertSlaPlan(trx, plan) {
        await assertNameFree(trx, OSTICKET_SLA_PLANS, plan.name);
        return insertOsticketSlaPlan(trx, plan);
      },
      deleteSlaPlan: deleteOsticketSlaPlan,
    };
  },
  osticketRequires: {
    comment:
      'SLA plans: read; sla/add and sla/delete write them as the admin panel does (a delete moves departments, topics and tickets off the plan)',
    tables: OSTICKET_SLA_TABLES,
  },
});
