import * as z from 'zod';
import { type TicketStatus, ticketStatuses } from '../../data/ticket-statuses/ticket-statuses.ts';
import { defineWholeListOperation } from '../read-whole-list.ts';
import { asDigits, asText, defineView } from '../views/view-definition.ts';

/** A status as status/all answers it. */
export const statusView = defineView<TicketStatus>()(
  'StatusRecord',
  'A ticket status (values as strings).',
  {
    id: asDigits((status) => status.id, 'The status id, for ticket/status `status_id`.'),
    name: asText((status) => status.name, 'Its name, as the staff panel shows it.'),
    state: {
      schema: z
        .enum(['open', 'closed'])
        .meta({ description: 'What setting it does: open or close.' }),
      read: (status) => (status.state === 'closed' ? 'closed' : 'open'),
    },
  },
);

export const statusAll = defineWholeListOperation({
  query: 'status',
  summary: 'List the ticket statuses a ticket can be set to (enabled; open or closed state)',
  description:
    'The statuses the staff panel offers: enabled, of state `open` or `closed` (archived and ' +
    'deleted are not set through a status change), in the help desk’s own order.',
  key: 'statuses',
  view: statusView,
  noun: 'ticket statuses',
  answers: 'The ticket statuses.',
  example: [
    { id: '1', name: 'Open', state: 'open' },
    { id: '3', name: 'Closed', state: 'closed' },
  ],
  examples: [{ name: 'all', summary: 'Every status a ticket can be set to' }],
  uses: [ticketStatuses],
  read: ({ data }, count) => data(ticketStatuses).list(count),
});
