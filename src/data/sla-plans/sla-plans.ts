import type { CatalogueListQuery, CatalogueVisibility, NewSlaPlan, SlaPlan } from '../../domain.ts';
import { defineEntity, type WriteTransaction } from '../entity.ts';
import { makeOsticketSlaPlans, OSTICKET_SLA_TABLES } from './osticket-sla-plans.ts';
import { makeOwnSlaPlans } from './own-sla-plans.ts';

/** osTicket's SLA flags (include/class.sla.php): active, escalate, no overdue alerts, transient. */
export const SLA_ACTIVE = 0x1;

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
  /** `deskgate sla add`; osTicket mode: UnsupportedInModeError (its admin panel's job). */
  addSlaPlan(plan: NewSlaPlan): Promise<SlaPlan>;
}

export const slaPlans = defineEntity<SlaPlanData>({
  name: 'sla-plans',
  own: makeOwnSlaPlans,
  osticket: makeOsticketSlaPlans,
  osticketRequires: {
    comment:
      'SLA plans: read; sla/add and sla/delete write them as the admin panel does (a delete moves departments, topics and tickets off the plan)',
    tables: OSTICKET_SLA_TABLES,
  },
});
