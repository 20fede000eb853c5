import { z } from 'zod';
import { agents } from '../../data/agents/agents.ts';
import { tickets } from '../../data/tickets/tickets.ts';
import { INT32_MAX, integerField } from '../fields.ts';
import { defineOperation } from '../operation.ts';
import { escapeHtml, textField } from '../plain-text.ts';
import { TICKET_WRITE_USES, writeTicket } from '../ticket-writes.ts';

export const ticketReplyParameters = z.strictObject({
  ticket_id: integerField(1, INT32_MAX).meta({ description: 'The ticket to answer.' }),
  body: textField(65_535, 'The response, plain text (stored HTML-escaped).'),
  staff_id: integerField(1, INT32_MAX).meta({ description: 'The active agent who answers.' }),
});

export const ticketReply = defineOperation({
  query: 'ticket',
  condition: 'reply',
  methods: ['POST', 'PUT'],
  scope: 'tickets:write',
  summary: "Post an agent's response to a ticket",
  description:
    'Needs `tickets:write`. Adds the response of the active agent `staff_id` to the ticket ' +
    '`ticket_id` (never to a task with the same id); the ticket becomes answered and, when ' +
    "unassigned, the agent's (osTicket's auto-claim). Every id is checked (400 naming the " +
    'field). Answers the new entry id. In osTicket mode: 501 `requires_osticket_bridge` until ' +
    "deskgate's osTicket bridge is set up.",
  parameters: { '*': ticketReplyParameters },
  response: z
    .string()
    .regex(/^[0-9]+$/)
    .meta({ description: 'The new entry id.', examples: ['12'] }),
  responseExample: '12',
  examples: [
    {
      name: 'ticket-reply',
      summary: 'Answer ticket 7 as agent 1',
      parameters: { ticket_id: 7, body: 'A technician is on the way.', staff_id: 1 },
    },
  ],
  // agents: the staff_id it acts as (deskgate agents add).
  uses: [...TICKET_WRITE_USES, agents],
  nothingFound: false,
  errors: ['requires_osticket_bridge'],
  handle: ({ parameters }, context) =>
    writeTicket(context, {
      run: (trx, at) =>
        context.data(tickets).insertReply(
          trx,
          {
            ticketId: parameters.ticket_id,
            staffId: parameters.staff_id,
            body: escapeHtml(parameters.body),
            ipAddress: context.clientIp,
          },
          at,
        ),
      targetId: String,
      outcome: (entryId) => `replied to ticket ${parameters.ticket_id} (entry ${entryId})`,
      answer: String,
    }),
});
