import * as z from 'zod';
import { INT32_MAX, integerField } from '../fields.ts';
import {
  commentsField,
  defineTicketIdChange,
  TICKET_CHANGE_ERRORS,
  ticketChangeFields,
  withComments,
} from '../ticket-changes.ts';

export const ticketStatusParameters = z.strictObject({
  ...ticketChangeFields,
  status_id: integerField(1, INT32_MAX).meta({
    description: 'An open or closed status (status/all): a closed one closes, an open one reopens.',
  }),
  comments: commentsField(),
});

export const ticketStatus = defineTicketIdChange({
  condition: 'status',
  summary: 'Set any open or closed status on a ticket (close, reopen), as an agent',
  what:
    'Sets the status `status_id` (status/all) as the staff panel does: a closed one closes ' +
    'the ticket (`closed`, `lastupdate` now, the agent as its agent, overdue cleared; a ' +
    '`closed` event), an open one of a closed ticket reopens it (`reopened`, `lastupdate` ' +
    'now, unanswered, the SLA due time counted again; a `reopened` event), an open one of an ' +
    'open ticket changes it (an `edited` event). The same status again changes nothing: 200, ' +
    'no event, `updated` unchanged. `comments` become an internal note "Status Changed". A ' +
    'status that is neither open nor closed → 400; open tasks → 409 `not_closeable`. A stale ' +
    "`if_unmodified_since` → 409 `conflict` with the ticket's current `updated`, nothing " +
    'written.',
  how:
    "sets it with osTicket's own code (the agent's role in the ticket's department, its events, " +
    'alerts and SLA)',
  parameters: ticketStatusParameters,
  example: {
    summary: 'Resolve ticket 6 as agent 1 (status Resolved, 2)',
    parameters: {
      ticket_id: 6,
      staff_id: 1,
      status_id: 2,
      comments: 'Replaced the fuser.',
    },
  },
  errors: [...TICKET_CHANGE_ERRORS, 'not_closeable'],
  change: ({ status_id: statusId, comments }) =>
    withComments(comments, {
      done: 'set',
      outcome: (verb, ticketId) => `${verb} status ${statusId} of ticket ${ticketId}`,
      own: { kind: 'status', statusId },
      osticket: {
        route: 'status',
        body: { status_id: statusId },
        fields: { status_id: 'status_id' },
        shows: (ticket) => ticket.statusId === statusId,
      },
    }),
});
