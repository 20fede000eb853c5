import { departmentAdd } from './department-add/department-add.ts';
import { departmentAll } from './department-all/department-all.ts';
import { departmentSpecific } from './department-specific/department-specific.ts';
import { eventsSince } from './events-since/events-since.ts';
import { faqAll } from './faq-all/faq-all.ts';
import { faqSpecific } from './faq-specific/faq-specific.ts';
import type { Operation } from './operation.ts';
import { priorityAll } from './priority-all/priority-all.ts';
import { slaAdd } from './sla-add/sla-add.ts';
import { slaAll } from './sla-all/sla-all.ts';
import { slaDelete } from './sla-delete/sla-delete.ts';
import { slaSpecific } from './sla-specific/sla-specific.ts';
import { staffAll } from './staff-all/staff-all.ts';
import { statusAll } from './status-all/status-all.ts';
import { tasksAll } from './tasks-all/tasks-all.ts';
import { tasksSpecific } from './tasks-specific/tasks-specific.ts';
import { teamAll } from './team-all/team-all.ts';
import { ticketAdd } from './ticket-add/ticket-add.ts';
import { ticketAll } from './ticket-all/ticket-all.ts';
import { ticketAssign } from './ticket-assign/ticket-assign.ts';
import { ticketClose } from './ticket-close/ticket-close.ts';
import { ticketNote } from './ticket-note/ticket-note.ts';
import { ticketReply } from './ticket-reply/ticket-reply.ts';
import { ticketSpecific } from './ticket-specific/ticket-specific.ts';
import { ticketStatus } from './ticket-status/ticket-status.ts';
import { ticketTransfer } from './ticket-transfer/ticket-transfer.ts';
import { ticketUpdate } from './ticket-update/ticket-update.ts';
import { topicsAll } from './topics-all/topics-all.ts';
import { topicsSpecific } from './topics-specific/topics-specific.ts';
import { userAdd } from './user-add/user-add.ts';
import { userAll } from './user-all/user-all.ts';
import { userSpecific } from './user-specific/user-specific.ts';
import { webhookAdd } from './webhook-add/webhook-add.ts';
import { webhookAll } from './webhook-all/webhook-all.ts';
import { webhookDelete } from './webhook-delete/webhook-delete.ts';
import { webhookDeliveries } from './webhook-deliveries/webhook-deliveries.ts';
import { webhookRedeliver } from './webhook-redeliver/webhook-redeliver.ts';
import { webhookSpecific } from './webhook-specific/webhook-specific.ts';
import { webhookTest } from './webhook-test/webhook-test.ts';
import { webhookUpdate } from './webhook-update/webhook-update.ts';

/**
 * Every operation, keyed `query/condition`. A new operation is one folder (its defineOperation
 * call) and one line here; the edge, the OpenAPI document and the dispatch read the rest.
 */
export const OPERATIONS = {
  'topics/specific': topicsSpecific,
  'topics/all': topicsAll,
  'user/add': userAdd,
  'user/specific': userSpecific,
  'user/all': userAll,
  'ticket/all': ticketAll,
  'ticket/specific': ticketSpecific,
  'ticket/add': ticketAdd,
  'ticket/reply': ticketReply,
  'ticket/close': ticketClose,
  'ticket/note': ticketNote,
  'ticket/status': ticketStatus,
  'ticket/assign': ticketAssign,
  'ticket/transfer': ticketTransfer,
  'ticket/update': ticketUpdate,
  'tasks/all': tasksAll,
  'tasks/specific': tasksSpecific,
  'department/all': departmentAll,
  'department/specific': departmentSpecific,
  'department/add': departmentAdd,
  'faq/all': faqAll,
  'faq/specific': faqSpecific,
  'sla/all': slaAll,
  'sla/specific': slaSpecific,
  'sla/add': slaAdd,
  'sla/delete': slaDelete,
  'status/all': statusAll,
  'priority/all': priorityAll,
  'staff/all': staffAll,
  'team/all': teamAll,
  'webhook/add': webhookAdd,
  'webhook/all': webhookAll,
  'webhook/specific': webhookSpecific,
  'webhook/update': webhookUpdate,
  'webhook/delete': webhookDelete,
  'webhook/test': webhookTest,
  'webhook/deliveries': webhookDeliveries,
  'webhook/redeliver': webhookRedeliver,
  'events/since': eventsSince,
} as const satisfies Record<string, Operation>;

export type OperationName = keyof typeof OPERATIONS;

/** Operations by query, then condition: two look-ups of the body's own strings, no joined key. */
const byQuery = new Map<string, Map<string, Operation>>();
for (const [name, operation] of Object.entries<Operation>(OPERATIONS)) {
  if (name !== operation.name) {
    throw new Error(`operation registered as ${name} is ${operation.name}`);
  }
  const conditions = byQuery.get(operation.query) ?? new Map<string, Operation>();
  conditions.set(operation.condition, operation);
  byQuery.set(operation.query, conditions);
}

export function findOperation(query: string, condition: string): Operation | undefined {
  return byQuery.get(query)?.get(condition);
}

export const OPERATION_NAMES = Object.keys(OPERATIONS) as OperationName[];
