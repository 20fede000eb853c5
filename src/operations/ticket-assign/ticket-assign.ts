import * as z from 'zod';
import { DeskgateError } from '../../errors.ts';
import { invalidParametersMessage } from '../../messages.ts';
import { INT32_MAX, integerField } from '../fields.ts';
import {
  commentsField,
  defineTicketIdChange,
  ticketChangeFields,
  withComments,
} from '../ticket-changes.ts';

export const ticketAssignParameters = z.strictObject({
  ...ticketChangeFields,
  agent_id: integerField(0, INT32_MAX)
    .optional()
    .meta({ description: 'The active agent to assign it to (staff/all); 0 releases its agent.' }),
  team_id: integerField(0, INT32_MAX)
    .optional()
    .meta({ description: 'The enabled team to assign it to (team/all); 0 releases its team.' }),
  comments: commentsField(),
});

type Parameters = z.output<typeof ticketAssignParameters>;

/** Exactly one of agent_id and team_id, as the staff panel assigns to one of them at a time. */
function assignee(parameters: Parameters): { agentId: number } | { teamId: number } {
  const { agent_id: agentId, team_id: teamId } = parameters;
  if (agentId !== undefined && teamId === undefined) return { agentId };
  if (teamId !== undefined && agentId === undefined) return { teamId };
  const message =
    agentId === undefined ? 'or team_id is required' : 'and team_id cannot both be given';
  throw new DeskgateError(
    'invalid_parameters',
    invalidParametersMessage([`parameters.agent_id ${message}`]),
    { errors: [{ field: 'parameters.agent_id', message }] },
  );
}

export const ticketAssign = defineTicketIdChange({
  condition: 'assign',
  summary: 'Assign a ticket to an agent or a team, or release it (0), as an agent',
  what:
    'Assigns the ticket to the active agent `agent_id` or the enabled team `team_id` (one of ' +
    'them), as the staff panel does: an `assigned` event (`{"staff":[id,name]}`, ' +
    '`{"claim":true}` when the agent takes it themself, `{"team":id}`), and a closed ticket ' +
    'is reopened. `0` releases the ticket from its agent (or team): a `released` event. ' +
    'Assigning it to whom it is assigned already, or releasing what is not assigned, changes ' +
    'nothing: 200, no event, `updated` unchanged. `comments` become an internal note. Every ' +
    'id is checked (400 naming the field); a stale `if_unmodified_since` → 409 `conflict` ' +
    "with the ticket's current `updated`, nothing written.",
  how:
    "assigns it with osTicket's own code (the agent's assign permission in the ticket's " +
    "department, the assignee's, its alerts)",
  parameters: ticketAssignParameters,
  example: {
    summary: 'Assign ticket 6 to agent 2, as agent 1',
    parameters: { ticket_id: 6, staff_id: 1, agent_id: 2, comments: 'Printer expert.' },
  },
  change(parameters) {
    const target = assignee(parameters);
    const toAgent = 'agentId' in target;
    return withComments(parameters.comments, {
      done: 'assigned',
      outcome: (verb, ticketId) =>
        `${verb} ticket ${ticketId} to ${toAgent ? `agent ${target.agentId}` : `team ${target.teamId}`}`,
      own: { kind: 'assign', ...target },
      osticket: {
        route: 'assign',
        body: toAgent ? { agent_id: target.agentId } : { team_id: target.teamId },
        fields: { agent_id: 'agent_id', team_id: 'team_id' },
        shows: (ticket) =>
          toAgent ? ticket.staffId === target.agentId : ticket.teamId === target.teamId,
      },
    });
  },
});
