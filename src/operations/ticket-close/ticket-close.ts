import { z } from 'zod';
import { tickets } from '../../data/tickets/tickets.ts';
import { INT32_MAX, integerField } from '../fields.ts';
import { defineOperation } from '../operation.ts';
import { escapeHtml } from '../plain-text.ts';
import { TICKET_WRITE_USES, writeTicket } from '../ticket-writes.ts';

const checked = (what: string) =>
  integerField(0, INT32_MAX)
    .optional()
    .meta({ description: `${what}; when not 0, it must be the ticket's (the original's field).` });

export const ticketCloseParameters = z.strictObject({
  ticket_id: integerField(1, INT32_MAX).meta({ description: 'The ticket to close.' }),
  body: z
    .string()
    .max(65_535, { error: 'must be at most 65535 characters' })
    .optional()
    .meta({ description: 'A comment, kept as an internal note "Status Changed" (as osTicket).' }),
  staff_id: integerField(1, INT32_MAX).meta({ description: 'The active agent who closes it.' }),
  status_id: integerField(1, INT32_MAX).meta({ description: 'A status whose state is closed.' }),
  team_id: checked('A team id'),
  dept_id: checked('A department id'),
  topic_id: checked('A help topic id'),
  username: z
    .string()
    .max(32, { error: 'must be at most 32 characters' })
    .optional()
    .meta({ description: "When given, the agent's username." }),
});

export const ticketClose = defineOperation({
  query: 'ticket',
  condition: 'close',
  methods: ['POST', 'PUT'],
  scope: 'tickets:write',
  summary: 'Close a ticket',
  description:
    'Needs `tickets:write`. Sets the closed-state status `status_id` on the one ticket ' +
    '`ticket_id`, as agent `staff_id`: `closed`, `lastupdate` and `updated` become now, the ' +
    'overdue flag is cleared and a `closed` event is recorded; a `body` is kept as an internal ' +
    "note. A status that is not a closed state → 400. The original's `team_id`, `dept_id`, " +
    '`topic_id` and `username` are accepted and checked against the ticket. Answers the ticket ' +
    "id. In osTicket mode: 501 `requires_osticket_bridge` until deskgate's osTicket bridge is set up.",
  parameters: { '*': ticketCloseParameters },
  response: z
    .string()
    .regex(/^[0-9]+$/)
    .meta({ description: 'The ticket id.', examples: ['7'] }),
  responseExample: '7',
  examples: [
    {
      name: 'ticket-close',
      summary: 'Close ticket 7 as agent 1 with status Closed (3)',
      parameters: { ticket_id: 7, body: 'Fire is out.', staff_id: 1, status_id: 3 },
    },
  ],
  uses: TICKET_WRITE_USES,
  nothingFound: false,
  errors: ['requires_osticket_bridge'],
  handle: ({ parameters }, context) =>
    writeTicket(context, {
      run: (trx, at) =>
        context.data(tickets).closeTicket(
          trx,
          {
            ticketId: parameters.ticket_id,
            staffId: parameters.staff_id,
            statusId: parameters.status_id,
            body: escapeHtml(parameters.body?.trim() ?? ''),
            ipAddress: context.clientIp,
            teamId: parameters.team_id ?? 0,
            deptId: parameters.dept_id ?? 0,
            topicId: parameters.topic_id ?? 0,
            username: parameters.username,
          },
          at,
        ),
      targetId: () => String(parameters.ticket_id),
      outcome: () => `closed ticket ${parameters.ticket_id} (status ${parameters.status_id})`,
      answer: () => String(parameters.ticket_id),
    }),
});
