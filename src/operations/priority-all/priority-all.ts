import {
  type TicketPriority,
  ticketPriorities,
} from '../../data/ticket-priorities/ticket-priorities.ts';
import { defineWholeListOperation } from '../read-whole-list.ts';
import { asDigits, asText, defineView } from '../views/view-definition.ts';

/** A priority as priority/all answers it. */
export const priorityView = defineView<TicketPriority>()(
  'PriorityRecord',
  'A ticket priority (values as strings).',
  {
    id: asDigits((priority) => priority.id, 'The priority id, for ticket/update `priority_id`.'),
    name: asText((priority) => priority.name, 'Its name, as agents and clients see it ("High").'),
    urgency: asDigits((priority) => priority.urgency, '1 the most urgent; larger numbers less.'),
  },
);

export const priorityAll = defineWholeListOperation({
  query: 'priority',
  summary: 'List every ticket priority: id, name, urgency',
  description: 'Every priority, in id order (agents may set any of them).',
  key: 'priorities',
  view: priorityView,
  noun: 'ticket priorities',
  answers: 'The ticket priorities.',
  example: [
    { id: '1', name: 'Low', urgency: '4' },
    { id: '4', name: 'Emergency', urgency: '1' },
  ],
  examples: [{ name: 'all', summary: 'Every priority' }],
  uses: [ticketPriorities],
  read: ({ data }, count) => data(ticketPriorities).list(count),
});
