import type { CatalogueListQuery, CatalogueVisibility } from '../../domain.ts';
import { catalogueReads } from '../common/catalogue-page.ts';
import { defineEntity, type WriteTransaction } from '../entity.ts';
import {
  deleteOsticketSlaPlan,
  insertOsticketSlaPlan,
  OSTICKET_SLA_PLANS,
  OSTICKET_SLA_TABLES,
} from './osticket-sla-plans.ts';
import { deleteOwnSlaPlan, insertOwnSlaPlan, OWN_SLA_PLANS } from './own-sla-plans.ts';
import type { NewSlaPlan, SlaPlan } from './sla-plan.ts';

/** SLA plans as operations and commands see them; `public` visibility: active plans only. */
export interface SlaPlanData {
  findSlaPlan(id: number, visibility: CatalogueVisibility): Promise<SlaPlan | undefined>;
  /** A page in (created, id) or (name, id) order, `limit` at most. */
  listSlaPlans(query: CatalogueListQuery): Promise<SlaPlan[]>;
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

export const slaPlans = defineEntity<SlaPlanData>({
  name: 'sla-plans',
  own(handle) {
    const { db, dialect } = handle;
    const reads = catalogueReads(db, OWN_SLA_PLANS);
    return {
      findSlaPlan: reads.find,
      listSlaPlans: reads.list,
      insertSlaPlan: (trx, plan) => insertOwnSlaPlan(trx, dialect, plan),
      deleteSlaPlan: deleteOwnSlaPlan,
      async addSlaPlan(plan) {
        const id = await dialect.writeTransaction(db, (trx) =>
          insertOwnSlaPlan(trx, dialect, plan),
        );
        const added = await reads.find(id, 'all');
        if (!added) throw new Error(`SLA plan ${id} vanished after its creation`);
        return added;
      },
    };
  },
  osticket(handle) {
    const reads = catalogueReads(handle.db, OSTICKET_SLA_PLANS);
    return {
      findSlaPlan: reads.find,
      listSlaPlans: reads.list,
      insertSlaPlan: insertOsticketSlaPlan,
      deleteSlaPlan: deleteOsticketSlaPlan,
    };
  },
  osticketRequires: {
    comment:
      'SLA plans: read; sla/add and sla/delete write them as the admin panel does (a delete moves departments, topics and tickets off the plan)',
    tables: OSTICKET_SLA_TABLES,
  },
});
