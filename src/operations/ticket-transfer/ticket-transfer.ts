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

export const ticketTransferParameters = z.strictObject({
  ...ticketChangeFields,
  dept_id: integerField(1, INT32_MAX).meta({
    description: 'The department to move it to (department/all).',
  }),
  comments: commentsField(),
});

export const ticketTransfer = defineOperation({
  ...TICKET_CHANGE,
  condition: 'transfer',
  summary: 'Transfer a ticket to another department',
  description:
    'Needs `tickets:write` and a key that may act as agent `staff_id` (403 `agent_not_allowed` ' +
    'naming the grant otherwise; a key of one agent may leave it out). Moves the ticket to the ' +
    'department `dept_id` as the staff panel does: a `transferred` event (`{"dept":name}`), the ' +
    "department's SLA plan when the ticket has none or a transient one, and a closed ticket is " +
    'reopened. Its own department again changes nothing: 200, no event, `updated` unchanged. ' +
    '`comments` become an internal note. Every id is checked (400 naming the field); a stale ' +
    "`if_unmodified_since` → 409 `conflict` with the ticket's current `updated`, nothing " +
    'written. Answers the ticket id. Send an `Idempotency-Key` to make retries safe. In ' +
    "osTicket mode deskgate's osTicket plugin transfers it with osTicket's own code (the " +
    "agent's transfer permission, its alerts); 501 `requires_osticket_bridge` until the plugin " +
    'is set up.',
  parameters: { '*': ticketTransferParameters },
  response: ticketIdResponse(),
  responseExample: '7',
  examples: [
    {
      name: 'ticket-transfer',
      summary: 'Transfer ticket 6 to department 2, as agent 1',
      parameters: { ticket_id: 6, staff_id: 1, dept_id: 2, comments: 'Hardware, not software.' },
    },
  ],
  errors: TICKET_CHANGE_ERRORS,
  handle({ parameters }, context) {
    // The key's own permission first: nothing about the ticket is looked at before it.
    const staffId = actingAgent(context, parameters.staff_id);
    const comments = parameters.comments?.trim() ?? '';
    const report: ChangeReport<string> = {
      outcome: ({ ticketId, changed }) =>
        `${changed ? 'transferred' : 'kept'} ticket ${ticketId} to department ${parameters.dept_id}`,
      ...TICKET_ID_ANSWER,
    };
    return changeTicket(context, parameters, {
      staffId,
      own: { kind: 'transfer', deptId: parameters.dept_id, comments: escapeHtml(comments) },
      osticket: {
        route: 'transfer',
        body: { dept_id: parameters.dept_id, ...commentsBody(comments) },
        fields: { dept_id: 'dept_id', comments: 'comments' },
        recover: (ticket) =>
          ticket.deptId === parameters.dept_id ? recoveredAnswer(ticket) : undefined,
      },
      report,
    });
  },
});
