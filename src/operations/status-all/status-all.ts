import { z } from 'zod';
import { type TicketStatus, ticketStatuses } from '../../data/ticket-statuses/ticket-statuses.ts';
import { clientRecord } from '../client-records.ts';
import { defineOperation, NO_SORT } from '../operation.ts';
import { answerWholeList } from '../read-whole-list.ts';
import { wholeListResponse } from '../response-shapes.ts';
import { digitsText } from '../views/digits-text.ts';

export const statusViewSchema = z
  .strictObject({
    id: digitsText('The status id, for ticket/status `status_id`.'),
    name: z.string().meta({ description: 'Its name, as the staff panel shows it.' }),
    state: z.enum(['open', 'closed']).meta({ description: 'What setting it does: open or close.' }),
  })
  .meta({ description: 'A ticket status (values as strings).' });
clientRecord(statusViewSchema, 'StatusRecord');

/** A status as status/all answers it. */
function toStatusView(status: TicketStatus): z.output<typeof statusViewSchema> {
  return {
    id: String(status.id),
    name: status.name,
    state: status.state === 'closed' ? ('closed' as const) : ('open' as const),
  };
}

export const statusAll = defineOperation({
  query: 'status',
  condition: 'all',
  methods: ['GET'],
  scope: 'tickets:read',
  summary: 'List the ticket statuses a ticket can be set to',
  description:
    'Needs `tickets:read`. The statuses the staff panel offers: enabled, of state `open` or ' +
    '`closed` (archived and deleted are not set through a status change), in the help ' +
    'desk’s own order. Every match up to DESKGATE_MAX_LIST, else 400 `too_many_results`.',
  parameters: { [NO_SORT]: z.strictObject({}) },
  parametersOptional: true,
  response: wholeListResponse('statuses', statusViewSchema, 'statuses', 'The ticket statuses.'),
  responseExample: {
    total: 2,
    statuses: [
      { id: '1', name: 'Open', state: 'open' },
      { id: '3', name: 'Closed', state: 'closed' },
    ],
  },
  examples: [{ name: 'all', summary: 'Every status a ticket can be set to' }],
  uses: [ticketStatuses],
  nothingFound: false,
  errors: ['too_many_results'],
  handle: (_selection, { data, config }) =>
    answerWholeList(
      config,
      { noun: 'ticket statuses', key: 'statuses', toView: toStatusView },
      (count) => data(ticketStatuses).list(count),
    ),
});
