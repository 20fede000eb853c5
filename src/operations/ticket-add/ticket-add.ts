import * as z from 'zod';
import { tickets } from '../../data/tickets/tickets.ts';
import { byLayout } from '../by-layout.ts';
import { INT32_MAX, integerField } from '../fields.ts';
import { defineOperation } from '../operation.ts';
import { rejectParameter, TICKET_WRITE, TICKET_WRITE_ERRORS } from '../osticket-ticket-writes.ts';
import { escapeHtml, stripTags, textField } from '../plain-text.ts';
import { idResponse } from '../response-shapes.ts';
import { type TicketWriteContext, writeTicketOnce } from '../ticket-writes.ts';
import { addTicketThroughOsticket } from './ticket-add-through-osticket.ts';

const chosen = (what: string) =>
  integerField(0, INT32_MAX)
    .optional()
    .meta({ description: `${what}; 0 or absent: what the help desk would choose.` });

export const ticketAddParameters = z.strictObject({
  title: textField(255, "The subject line (the original's README: `title` is the subject)."),
  subject: textField(65_535, 'The message body, plain text (stored HTML-escaped).'),
  user_id: integerField(1, INT32_MAX).meta({ description: 'The user who opens the ticket.' }),
  priority_id: chosen('A priority id (default: Normal)'),
  status_id: chosen('A status id, open or closed state (default: the first open status)'),
  dept_id: chosen('A department id (default: the default department)'),
  sla_id: chosen("An SLA plan id (default: the department's, else the default plan)"),
  topic_id: chosen('A help topic id (default: none)'),
});

/** Answers the ticket's id, and its number in the X-Ticket-Number header (a replay looks it up). */
async function withNumber(context: TicketWriteContext, id: string): Promise<string> {
  const ticket = await context.data(tickets).findTicket({ id: Number(id) }, { notes: false });
  if (ticket) context.addResponseHeader('X-Ticket-Number', ticket.number);
  return id;
}

/** The ticket on deskgate's own schema, once per Idempotency-Key; its number in X-Ticket-Number. */
async function addOwnTicket(
  parameters: z.output<typeof ticketAddParameters>,
  context: TicketWriteContext,
): Promise<string> {
  const ticket = {
    userId: parameters.user_id,
    subject: stripTags(parameters.title).trim(),
    body: escapeHtml(parameters.subject),
    priorityId: parameters.priority_id ?? 0,
    statusId: parameters.status_id ?? 0,
    deptId: parameters.dept_id ?? 0,
    slaId: parameters.sla_id ?? 0,
    topicId: parameters.topic_id ?? 0,
    ipAddress: context.clientIp,
  };
  const id = await writeTicketOnce(context, parameters, {
    run: (trx, at) => context.data(tickets).insertTicket(trx, ticket, at),
    targetId: (created) => String(created.id),
    outcome: (created) => `created ticket ${created.id} (number ${created.number})`,
    answer: (created) => String(created.id),
  });
  return withNumber(context, id);
}

export const ticketAdd = defineOperation({
  ...TICKET_WRITE,
  condition: 'add',
  summary: 'Open a ticket for a user; answers its id, and its number in X-Ticket-Number',
  description:
    'Needs `tickets:write`. Opens a ticket for `user_id` with the subject line `title` and the ' +
    'message `subject` (plain text, stored HTML-escaped), as the original did. `priority_id`, ' +
    '`status_id`, `dept_id`, `sla_id` and `topic_id` may be 0 or absent: the help desk then ' +
    'chooses. Every id is checked (400 naming the field). The ticket gets the next number, its ' +
    'SLA due time and a `created` event in the same transaction. Answers the ticket id; the ' +
    'number is in the `X-Ticket-Number` header. Send an `Idempotency-Key` to make retries ' +
    "safe. In osTicket mode: 501 `requires_osticket_bridge` until deskgate's osTicket bridge " +
    'is set up; a `dept_id`, `sla_id` or `status_id` osTicket would not choose itself goes ' +
    "through deskgate's osTicket plugin as the key's agent (403 `agent_not_allowed` for a key " +
    'of no agent, such as an osTicket key without a grant).',
  parameters: { '*': ticketAddParameters },
  responseHeaders: {
    'X-Ticket-Number': {
      description: "ticket/add: the new ticket's number, as the help desk shows it.",
      example: '000007',
    },
  },
  response: idResponse('The new ticket id.', '7'),
  responseExample: '7',
  examples: [
    {
      name: 'ticket-add',
      summary: 'Open a ticket, letting the help desk choose department, SLA and status',
      parameters: {
        title: 'Printer on fire',
        subject: 'The printer on floor 2 is on fire.',
        user_id: 42,
        priority_id: 3,
        status_id: 0,
        dept_id: 0,
        sla_id: 0,
        topic_id: 0,
      },
    },
  ],
  errors: TICKET_WRITE_ERRORS,
  async handle({ parameters }, context) {
    // osTicket strips tags from a subject line; so does deskgate, on every layout (decision 324).
    if (stripTags(parameters.title).trim() === '') {
      rejectParameter('title', 'must hold text, not only markup');
    }
    return byLayout(context, {
      async osticket() {
        const created = await addTicketThroughOsticket(parameters, context);
        context.addResponseHeader('X-Ticket-Number', created.number);
        return created.id;
      },
      own: () => addOwnTicket(parameters, context),
    });
  },
});
