import { z } from 'zod';
import { actingAgent } from '../acting-agent.ts';
import { INT32_MAX, integerField } from '../fields.ts';
import { defineOperation } from '../operation.ts';
import { escapeHtml } from '../plain-text.ts';
import {
  type ChangeReport,
  changeTicket,
  commentsBody,
  commentsField,
  recoveredAnswer,
  TICKET_CHANGE,
  TICKET_CHANGE_ERRORS,
  TICKET_ID_ANSWER,
  ticketChangeFields,
  ticketIdResponse,
} from '../ticket-changes.ts';

export const ticketStatusParameters = z.strictObject({
  ...ticketChangeFields,
  status_id: integerField(1, INT32_MAX).meta({
    description: 'An open or closed status (status/all): a closed one closes, an open one reopens.',
  }),
  comments: commentsField(),
});

export const ticketStatus = defineOperation({
  ...TICKET_CHANGE,
  condition: 'status',
  summary: "Set a ticket's status (close, reopen)",
  description:
    'Needs `tickets:write` and a key that may act as agent `staff_id` (403 `agent_not_allowed` ' +
    'naming the grant otherwise; a key of one agent may leave it out). Sets the status ' +
    '`status_id` (status/all) as the staff panel does: a closed one closes the ticket (`closed`, ' +
    '`lastupdate` now, the agent as its agent, overdue cleared; a `closed` event), an open one ' +
    'of a closed ticket reopens it (`reopened`, `lastupdate` now, unanswered, the SLA due time ' +
    'counted again; a `reopened` event), an open one of an open ticket changes it (an `edited` ' +
    'event). The same status again changes nothing: 200, no event, `updated` unchanged. ' +
    '`comments` become an internal note "Status Changed". A status that is neither open nor ' +
    'closed → 400; open tasks → 409 `not_closeable`. A stale `if_unmodified_since` → 409 ' +
    "`conflict` with the ticket's current `updated`, nothing written. Answers the ticket id. " +
    "Send an `Idempotency-Key` to make retries safe. In osTicket mode deskgate's osTicket " +
    "plugin sets it with osTicket's own code (the agent's role in the ticket's department, " +
    'its events, alerts and SLA); 501 `requires_osticket_bridge` until the plugin is set up.',
  parameters: { '*': ticketStatusParameters },
  response: ticketIdResponse(),
  responseExample: '7',
  examples: [
    {
      name: 'ticket-status',
      summary: 'Resolve ticket 6 as agent 1 (status Resolved, 2)',
      parameters: {
        ticket_id: 6,
        staff_id: 1,
        status_id: 2,
        comments: 'Replaced the fuser.',
      },
    },
  ],
  errors: [...TICKET_CHANGE_ERRORS, 'not_closeable'],
  handle({ parameters }, context) {
    // The key's own permission first: nothing about the ticket is looked at before it.
    const staffId = actingAgent(context, parameters.staff_id);
    const comments = parameters.comments?.trim() ?? '';
    const report: ChangeReport<string> = {
      outcome: ({ ticketId, changed }) =>
        `${changed ? 'set' : 'kept'} status ${parameters.status_id} of ticket ${ticketId}`,
      ...TICKET_ID_ANSWER,
    };
    return changeTicket(context, parameters, {
      staffId,
      own: { kind: 'status', statusId: parameters.status_id, comments: escapeHtml(comments) },
      osticket: {
        route: 'status',
        body: { status_id: parameters.status_id, ...commentsBody(comments) },
        fields: { status_id: 'status_id', comments: 'comments' },
        recover: (ticket) =>
          ticket.statusId === parameters.status_id ? recoveredAnswer(ticket) : undefined,
      },
      report,
    });
  },
});
