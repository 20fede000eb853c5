import * as z from 'zod';
import { tickets } from '../../data/tickets/tickets.ts';
import { actingAgent } from '../acting-agent.ts';
import { byLayout } from '../by-layout.ts';
import { INT32_MAX, integerField } from '../fields.ts';
import { defineOperation } from '../operation.ts';
import { type OsticketWriteContext, TICKET_WRITE_ERRORS } from '../osticket-ticket-writes.ts';
import { escapeHtml, textField } from '../plain-text.ts';
import { idResponse } from '../response-shapes.ts';
import { changeThroughOsticket, postedSinceClaim, TICKET_CHANGE } from '../ticket-changes.ts';
import { writeTicketOnce } from '../ticket-writes.ts';

/**
 * osTicket mode: deskgate's osTicket plugin posts it as the agent, and osTicket mails it; with an
 * Idempotency-Key claimed first, so that a retry never mails the user twice (decision 412).
 */
function replyThroughOsticket(
  parameters: z.output<typeof ticketReplyParameters>,
  staffId: number,
  context: OsticketWriteContext,
): Promise<string> {
  return changeThroughOsticket(
    context,
    parameters,
    {
      route: 'reply',
      body: {
        staff_id: staffId,
        ticket_id: parameters.ticket_id,
        message: parameters.body,
        ip: context.clientIp,
      },
      fields: { staff_id: 'staff_id', ticket_id: 'ticket_id', message: 'body' },
      // The response an unanswered call posted: the agent's, since the claim.
      recover: (ticket, ageMs) => postedSinceClaim(context, ticket, staffId, 'R', ageMs),
    },
    {
      outcome: ({ ticketId, entryId }) => `replied to ticket ${ticketId} (entry ${entryId})`,
      answer: ({ entryId }) => String(entryId),
    },
  );
}

export const ticketReplyParameters = z.strictObject({
  ticket_id: integerField(1, INT32_MAX).meta({ description: 'The ticket to answer.' }),
  body: textField(65_535, 'The response, plain text (stored HTML-escaped).'),
  staff_id: integerField(1, INT32_MAX).optional().meta({
    description:
      "The active agent who answers: one the key was given (`--agent`); absent, the key's one agent.",
  }),
});

export const ticketReply = defineOperation({
  ...TICKET_CHANGE,
  condition: 'reply',
  summary: "Post an agent's response to a ticket; answers the entry id",
  description:
    'Needs `tickets:write` and a key that may act as agent `staff_id` (403 `agent_not_allowed` ' +
    "naming the grant otherwise; a key of one agent may leave it out). Adds the agent's response to the ticket " +
    '`ticket_id` (never to a task with the same id); the ticket becomes answered and, when ' +
    "unassigned, the agent's (osTicket's auto-claim). Every id is checked (400 naming the " +
    "field). Answers the new entry id. In osTicket mode deskgate's osTicket plugin posts it " +
    "with osTicket's own code, which checks the agent's permissions and mails the user; 501 " +
    '`requires_osticket_bridge` (nothing written) until the plugin is set up. Send an ' +
    "`Idempotency-Key` to make retries safe: the same key answers the first reply's entry id, " +
    'and the user gets one reply, one mail.',
  parameters: { '*': ticketReplyParameters },
  response: idResponse('The new entry id.', '12'),
  responseExample: '12',
  examples: [
    {
      name: 'ticket-reply',
      summary: 'Answer ticket 7 as agent 1',
      parameters: { ticket_id: 7, body: 'A technician is on the way.', staff_id: 1 },
    },
  ],
  errors: TICKET_WRITE_ERRORS,
  handle({ parameters }, context) {
    // The key's own permission first: nothing about the ticket is looked at before it.
    const staffId = actingAgent(context, parameters.staff_id);
    return byLayout(context, {
      osticket: () => replyThroughOsticket(parameters, staffId, context),
      own: () =>
        writeTicketOnce(context, parameters, {
          run: (trx, at) =>
            context.data(tickets).insertReply(
              trx,
              {
                ticketId: parameters.ticket_id,
                staffId,
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
  },
});
