import { z } from 'zod';
import {
  type TicketPriority,
  ticketPriorities,
} from '../../data/ticket-priorities/ticket-priorities.ts';
import { clientRecord } from '../client-records.ts';
import { defineOperation, NO_SORT } from '../operation.ts';
import { answerWholeList } from '../read-whole-list.ts';
import { wholeListResponse } from '../response-shapes.ts';
import { digitsText } from '../views/digits-text.ts';

export const priorityViewSchema = z
  .strictObject({
    id: digitsText('The priority id, for ticket/update `priority_id`.'),
    name: z.string().meta({ description: 'Its name, as agents and clients see it ("High").' }),
    urgency: digitsText('1 the most urgent; larger numbers less.'),
  })
  .meta({ description: 'A ticket priority (values as strings).' });
clientRecord(priorityViewSchema, 'PriorityRecord');

/** A priority as priority/all answers it. */
function toPriorityView(priority: TicketPriority): z.output<typeof priorityViewSchema> {
  return {
    id: String(priority.id),
    name: priority.name,
    urgency: String(priority.urgency),
  };
}

export const priorityAll = defineOperation({
  query: 'priority',
  condition: 'all',
  methods: ['GET'],
  scope: 'tickets:read',
  summary: 'List the ticket priorities',
  description:
    'Needs `tickets:read`. Every priority, in id order (agents may set any of them). Every ' +
    'match up to DESKGATE_MAX_LIST, else 400 `too_many_results`.',
  parameters: { [NO_SORT]: z.strictObject({}) },
  parametersOptional: true,
  response: wholeListResponse(
    'priorities',
    priorityViewSchema,
    'priorities',
    'The ticket priorities.',
  ),
  responseExample: {
    total: 2,
    priorities: [
      { id: '1', name: 'Low', urgency: '4' },
      { id: '4', name: 'Emergency', urgency: '1' },
    ],
  },
  examples: [{ name: 'all', summary: 'Every priority' }],
  uses: [ticketPriorities],
  nothingFound: false,
  errors: ['too_many_results'],
  handle: (_selection, { data, config }) =>
    answerWholeList(
      config,
      { noun: 'ticket priorities', key: 'priorities', toView: toPriorityView },
      (count) => data(ticketPriorities).list(count),
    ),
});
