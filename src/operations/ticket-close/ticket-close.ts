import * as z from 'zod';
import { CloseFieldsMismatchError } from '../../data/store.ts';
import { ticketInputs } from '../../data/ticket-inputs/ticket-inputs.ts';
import { tickets } from '../../data/tickets/tickets.ts';
import { DeskgateError } from '../../errors.ts';
import { insufficientScopeMessage, invalidParametersMessage } from '../../messages.ts';
import { actingAgent } from '../acting-agent.ts';
import { byLayout } from '../by-layout.ts';
import { INT32_MAX, integerField } from '../fields.ts';
import { defineOperation, type OperationContext } from '../operation.ts';
import {
  type OsticketWriteContext,
  osticketBridgeOf,
  rejectParameter,
  TICKET_WRITE,
  TICKET_WRITE_ERRORS,
} from '../osticket-ticket-writes.ts';
import { escapeHtml } from '../plain-text.ts';
import {
  changeThroughOsticket,
  recoveredAnswer,
  TICKET_ID_ANSWER,
  ticketIdResponse,
} from '../ticket-changes.ts';
import { writeTicketOnce } from '../ticket-writes.ts';

type Parameters = z.output<typeof ticketCloseParameters>;

/** The one answer to a wrong dept_id, topic_id, team_id or username, whichever it is (SPEC §4a). */
function closeFieldsMismatch(): DeskgateError {
  const message =
    "dept_id, topic_id, team_id and username, where given, must be the ticket's and the agent's; they are not";
  return new DeskgateError('invalid_parameters', invalidParametersMessage([message]), {
    errors: [{ field: 'parameters', message }],
  });
}

/**
 * The original's extra fields are compared with the ticket only for a key that may read tickets
 * (decision 313): to any other key each answer would tell a ticket's department, topic or team,
 * or its agent's login name, one guess at a time.
 */
function assertMayCheckCloseFields(context: OperationContext, parameters: Parameters): void {
  const given =
    Boolean(parameters.dept_id) ||
    Boolean(parameters.topic_id) ||
    Boolean(parameters.team_id) ||
    parameters.username !== undefined;
  if (given && !context.apiKey.scopes.includes('tickets:read')) {
    throw new DeskgateError(
      'insufficient_scope',
      `${insufficientScopeMessage('tickets:read', 'ticket/close')} It compares dept_id, topic_id, team_id and username with the ticket only for a key that may read it; leave them out.`,
    );
  }
}

/**
 * osTicket mode: the original's extra fields are checked against the ticket here, then deskgate's
 * osTicket plugin closes it as the panel's status action does (the body as an internal note).
 */
async function closeThroughOsticket(
  parameters: Parameters,
  staffId: number,
  context: OsticketWriteContext,
): Promise<string> {
  osticketBridgeOf(context);
  const ticket = await context
    .data(tickets)
    .findTicket({ id: parameters.ticket_id }, { notes: false });
  if (!ticket) rejectParameter('ticket_id', 'is not an existing ticket');
  const { dept_id: deptId = 0, topic_id: topicId = 0, team_id: teamId = 0 } = parameters;
  const username =
    parameters.username === undefined
      ? undefined
      : await context.data(ticketInputs).agentUsername(staffId);
  if (parameters.username !== undefined && username === undefined)
    rejectParameter('staff_id', 'is not an existing agent');
  if (
    (deptId !== 0 && deptId !== ticket.deptId) ||
    (topicId !== 0 && topicId !== ticket.topicId) ||
    (teamId !== 0 && teamId !== ticket.teamId) ||
    (parameters.username !== undefined && username !== parameters.username)
  )
    throw closeFieldsMismatch();
  const note = parameters.body?.trim() ?? '';
  return changeThroughOsticket(
    context,
    parameters,
    {
      route: 'close',
      body: {
        staff_id: staffId,
        ticket_id: parameters.ticket_id,
        status_id: parameters.status_id,
        ip: context.clientIp,
        ...(note === '' ? {} : { note }),
      },
      fields: {
        staff_id: 'staff_id',
        ticket_id: 'ticket_id',
        status_id: 'status_id',
        note: 'body',
      },
      // An unanswered call closed it when the ticket has the status now.
      recover: (found) =>
        found.statusId === parameters.status_id ? recoveredAnswer(found) : undefined,
    },
    {
      outcome: () => `closed ticket ${parameters.ticket_id} (status ${parameters.status_id})`,
      ...TICKET_ID_ANSWER,
    },
  );
}

/** deskgate's own schema: the close, once per Idempotency-Key. */
async function closeOwnTicket(
  parameters: Parameters,
  staffId: number,
  context: OsticketWriteContext,
): Promise<string> {
  try {
    return await writeTicketOnce(context, parameters, {
      run: (trx, at) =>
        context.data(tickets).closeTicket(
          trx,
          {
            ticketId: parameters.ticket_id,
            staffId,
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
    });
  } catch (error) {
    throw error instanceof CloseFieldsMismatchError ? closeFieldsMismatch() : error;
  }
}

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
  staff_id: integerField(1, INT32_MAX).optional().meta({
    description:
      "The active agent who closes it: one the key was given (`--agent`); absent, the key's one agent.",
  }),
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
  ...TICKET_WRITE,
  condition: 'close',
  summary: 'Close a ticket with a closed-state status, as an agent',
  description:
    'Needs `tickets:write` and a key that may act as agent `staff_id` (403 `agent_not_allowed` ' +
    'naming the grant otherwise; a key of one agent may leave it out). Sets the closed-state status `status_id` on the one ticket ' +
    '`ticket_id`, as that agent: `closed`, `lastupdate` and `updated` become now, the ' +
    'overdue flag is cleared and a `closed` event is recorded; a `body` is kept as an internal ' +
    "note. A status that is not a closed state → 400. The original's `team_id`, `dept_id`, " +
    '`topic_id` and `username` are accepted and, for a key that also has `tickets:read`, checked ' +
    "against the ticket and the agent after the key's own permission, with one 400 whichever " +
    'differs (without `tickets:read`: 403, leave them out). Answers the ticket ' +
    "id. In osTicket mode deskgate's osTicket plugin closes it with osTicket's own code (its " +
    'checks: permissions, open tasks, required fields → 409 `not_closeable`); 501 ' +
    '`requires_osticket_bridge` (nothing written) until the plugin is set up. Send an ' +
    '`Idempotency-Key` to make retries safe.',
  parameters: { '*': ticketCloseParameters },
  response: ticketIdResponse(),
  responseExample: '7',
  examples: [
    {
      name: 'ticket-close',
      summary: 'Close ticket 7 as agent 1 with status Closed (3)',
      parameters: { ticket_id: 7, body: 'Fire is out.', staff_id: 1, status_id: 3 },
    },
  ],
  errors: [...TICKET_WRITE_ERRORS, 'not_closeable'],
  async handle({ parameters }, context) {
    // The key's own permission first: nothing about the ticket is looked at before it.
    const staffId = actingAgent(context, parameters.staff_id);
    assertMayCheckCloseFields(context, parameters);
    return byLayout(context, {
      osticket: () => closeThroughOsticket(parameters, staffId, context),
      own: () => closeOwnTicket(parameters, staffId, context),
    });
  },
});
