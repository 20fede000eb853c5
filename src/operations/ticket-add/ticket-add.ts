import { z } from 'zod';
import { IdempotencyConflictError } from '../../data/store.ts';
import { INT32_MAX, integerField } from '../fields.ts';
import { defineOperation, type OperationContext } from '../operation.ts';
import { escapeHtml, textField } from '../plain-text.ts';
import { assertTicketWritesHere, toParameterError } from '../ticket-writes.ts';
import { claimOf, replayedId } from './ticket-idempotency.ts';

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

/** Answers the ticket's id, and its number in the X-Ticket-Number header. */
async function answer(context: OperationContext, id: number): Promise<string> {
  const ticket = await context.store.tickets.findTicket({ id }, { notes: false });
  if (ticket) context.addResponseHeader('X-Ticket-Number', ticket.number);
  return String(id);
}

export const ticketAdd = defineOperation({
  query: 'ticket',
  condition: 'add',
  methods: ['POST', 'PUT'],
  scope: 'tickets:write',
  summary: 'Open a ticket for a user',
  description:
    'Needs `tickets:write`. Opens a ticket for `user_id` with the subject line `title` and the ' +
    'message `subject` (plain text, stored HTML-escaped), as the original did. `priority_id`, ' +
    '`status_id`, `dept_id`, `sla_id` and `topic_id` may be 0 or absent: the help desk then ' +
    'chooses. Every id is checked (400 naming the field). The ticket gets the next number, its ' +
    'SLA due time and a `created` event in the same transaction. Answers the ticket id; the ' +
    'number is in the `X-Ticket-Number` header. Send an `Idempotency-Key` to make retries ' +
    "safe. In osTicket mode: 501 `requires_osticket_bridge` until deskgate's osTicket bridge " +
    'is set up.',
  parameters: { '*': ticketAddParameters },
  response: z
    .string()
    .regex(/^[0-9]+$/)
    .meta({ description: 'The new ticket id.', examples: ['7'] }),
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
  nothingFound: false,
  idempotencyKey: true,
  errors: ['idempotency_mismatch', 'requires_osticket_bridge'],
  async handle({ parameters }, context) {
    assertTicketWritesHere(context);
    const { store, apiKey, clientIp, idempotencyKey } = context;
    const claim = idempotencyKey
      ? claimOf('ticket/add', apiKey.id, idempotencyKey, parameters)
      : undefined;
    if (claim) {
      const earlier = await replayedId(store, claim);
      if (earlier !== undefined) return answer(context, earlier);
    }
    try {
      const created = await store.tickets.createTicket(
        {
          userId: parameters.user_id,
          subject: parameters.title,
          body: escapeHtml(parameters.subject),
          priorityId: parameters.priority_id ?? 0,
          statusId: parameters.status_id ?? 0,
          deptId: parameters.dept_id ?? 0,
          slaId: parameters.sla_id ?? 0,
          topicId: parameters.topic_id ?? 0,
          ipAddress: clientIp,
        },
        { apiKeyId: apiKey.id, clientIp, operation: 'ticket/add' },
        claim,
      );
      context.addResponseHeader('X-Ticket-Number', created.number);
      return String(created.id);
    } catch (error) {
      if (error instanceof IdempotencyConflictError && claim) {
        const earlier = await replayedId(store, claim);
        if (earlier !== undefined) return answer(context, earlier);
      }
      throw toParameterError(error);
    }
  },
});
