import * as z from 'zod';
import type { TicketListQuery } from '../../data/tickets/ticket.ts';
import { tickets } from '../../data/tickets/tickets.ts';
import { CREATED_CURSOR } from '../created-cursor.ts';
import { creationDateExample, dateRangeParameters, endBound } from '../date-range.ts';
import { INT32_MAX, integerField } from '../fields.ts';
import { listAnswer, listParameters, listRequest, readList } from '../list-page.ts';
import { defineOperation } from '../operation.ts';
import { TICKET_EXAMPLE, ticketViewSchema, toTicketView } from '../views/ticket-view.ts';

const status = () =>
  integerField(0, INT32_MAX).meta({
    description: 'A status id of the status table (osTicket: ticket_status); 0 = any status.',
  });
/** Pages resume after a (time, id) position: user/all's cursor, over creation or last-update time. */
const paging = listParameters(CREATED_CURSOR, 'Tickets');

/** Its parameters, by the `sort` that selects them (the original's four). */
export const ticketAllParameters = {
  creationDate: dateRangeParameters(paging),
  lastUpdateDate: dateRangeParameters(paging),
  status: z.strictObject({ status: status(), ...paging }),
  statusByDate: dateRangeParameters({ status: status(), ...paging }),
};

export const ticketAllResponse = z
  .strictObject({
    total: z.int().min(0).meta({ description: 'How many tickets this answer holds.' }),
    tickets: z.array(ticketViewSchema),
    next: z
      .string()
      .optional()
      .meta({ description: 'Present when more follow: pass it as `parameters.after`.' }),
  })
  .meta({ description: 'Tickets, one element each with its entries, in (time, id) order.' });

export const ticketAll = defineOperation({
  query: 'ticket',
  condition: 'all',
  methods: ['GET'],
  scope: 'tickets:read',
  summary:
    'List tickets by creation time, last update, status, or status and creation time, each with its entries',
  description:
    'Needs `tickets:read`. `sort` `"creationDate"` (the default) and `"lastUpdateDate"`: tickets ' +
    'whose creation / last update time lies between `start_date` and `end_date` (inclusive); ' +
    '`"status"`: tickets of one status (`0` = any); `"statusByDate"`: both. One element per ' +
    'ticket with its own columns, `subject`, `priority` and `entries` (messages and responses, ' +
    'oldest first; internal notes only for a key made with `--notes`). In (time, id) order. ' +
    'With `limit` (1–1000) it pages like user/all (`next` → `after`); without, it answers every ' +
    'match up to DESKGATE_MAX_LIST (default 10,000), and more than that is 400 ' +
    '`too_many_results`: never a silently cut list.',
  parameters: ticketAllParameters,
  defaultSort: 'creationDate',
  response: ticketAllResponse,
  responseExample: { total: 1, tickets: [TICKET_EXAMPLE] },
  examples: [
    creationDateExample('The tickets opened in November 2026, 100 per page', {
      start_date: '2026-11-01',
      end_date: '2026-11-30',
      limit: 100,
    }),
    {
      name: 'by-last-update',
      summary: 'The tickets updated on one day',
      sort: 'lastUpdateDate',
      parameters: { start_date: '2026-11-22', end_date: '2026-11-22' },
    },
    {
      name: 'by-status',
      summary: 'The open tickets (status 1), 50 per page',
      sort: 'status',
      parameters: { status: 1, limit: 50 },
    },
    {
      name: 'by-status-and-date',
      summary: 'The closed tickets (status 3) opened in November 2026',
      sort: 'statusByDate',
      parameters: { status: 3, start_date: '2026-11-01', end_date: '2026-11-30' },
    },
  ],
  uses: [tickets],
  nothingFound: false,
  errors: ['too_many_results'],
  async handle(selection, { data, config, apiKey }) {
    const { parameters } = selection;
    const order = selection.sort === 'lastUpdateDate' ? 'lastupdate' : 'created';
    const { elements, next } = await readList(
      listRequest(parameters, config, 'tickets', CREATED_CURSOR),
      (count, after) => {
        const query: TicketListQuery = {
          order,
          from: 'start_date' in parameters ? parameters.start_date : undefined,
          to: 'end_date' in parameters ? endBound(parameters.end_date, config.endDate) : undefined,
          statusId: 'status' in parameters ? parameters.status : 0,
          after,
          limit: count,
          notes: apiKey.notes,
        };
        return data(tickets).listTickets(query);
      },
      (ticket) => ({
        created: order === 'created' ? ticket.created : (ticket.lastUpdate ?? ticket.created),
        id: ticket.id,
      }),
    );
    return listAnswer('tickets', elements.map(toTicketView), next);
  },
});
