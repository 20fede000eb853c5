import * as z from 'zod';
import { INT32_MAX, integerField } from '../fields.ts';
import {
  commentsField,
  defineTicketIdChange,
  ticketChangeFields,
  withComments,
} from '../ticket-changes.ts';

export const ticketTransferParameters = z.strictObject({
  ...ticketChangeFields,
  dept_id: integerField(1, INT32_MAX).meta({
    description: 'The department to move it to (department/all).',
  }),
  comments: commentsField(),
});

export const ticketTransfer = defineTicketIdChange({
  condition: 'transfer',
  summary: 'Transfer a ticket to another department, as an agent',
  what:
    'Moves the ticket to the department `dept_id` as the staff panel does: a `transferred` ' +
    'event (`{"dept":name}`), the department\'s SLA plan when the ticket has none or a ' +
    'transient one, and a closed ticket is reopened. Its own department again changes ' +
    'nothing: 200, no event, `updated` unchanged. `comments` become an internal note. Every ' +
    'id is checked (400 naming the field); a stale `if_unmodified_since` → 409 `conflict` ' +
    "with the ticket's current `updated`, nothing written.",
  how: "transfers it with osTicket's own code (the agent's transfer permission, its alerts)",
  parameters: ticketTransferParameters,
  example: {
    summary: 'Transfer ticket 6 to department 2, as agent 1',
    parameters: { ticket_id: 6, staff_id: 1, dept_id: 2, comments: 'Hardware, not software.' },
  },
  change: ({ dept_id: deptId, comments }) =>
    withComments(comments, {
      done: 'transferred',
      outcome: (verb, ticketId) => `${verb} ticket ${ticketId} to department ${deptId}`,
      own: { kind: 'transfer', deptId },
      osticket: {
        route: 'transfer',
        body: { dept_id: deptId },
        fields: { dept_id: 'dept_id' },
        shows: (ticket) => ticket.deptId === deptId,
      },
    }),
});
