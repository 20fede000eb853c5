import * as z from 'zod';
import type { Ticket } from '../../data/tickets/ticket.ts';
import { DeskgateError } from '../../errors.ts';
import { invalidParametersMessage } from '../../messages.ts';
import { INT32_MAX, integerField } from '../fields.ts';
import { defineTicketIdChange, ticketChangeFields, timestampField } from '../ticket-changes.ts';

export const ticketUpdateParameters = z.strictObject({
  ...ticketChangeFields,
  priority_id: integerField(1, INT32_MAX)
    .optional()
    .meta({ description: 'A priority (priority/all).' }),
  topic_id: integerField(1, INT32_MAX).optional().meta({ description: 'A help topic.' }),
  sla_id: integerField(0, INT32_MAX).optional().meta({
    description:
      "An SLA plan (sla/all); 0: none (not in osTicket mode: osTicket's panel cannot remove a plan, 400).",
  }),
  duedate: timestampField()
    .nullable()
    .optional()
    .meta({
      description:
        "The ticket's due date, `YYYY-MM-DD HH:MM:SS` in the future, on the clock of the " +
        "tickets' times; `null` clears it.",
      examples: ['2099-12-01 17:00:00'],
    }),
});

type Parameters = z.output<typeof ticketUpdateParameters>;

const FIELDS = ['priority_id', 'topic_id', 'sla_id', 'duedate'] as const;

/** Whether the ticket already has every value asked for (a lost answer's recovery). */
function hasValues(ticket: Ticket, parameters: Parameters): boolean {
  return (
    (parameters.priority_id === undefined || ticket.priorityId === parameters.priority_id) &&
    (parameters.topic_id === undefined || ticket.topicId === parameters.topic_id) &&
    (parameters.sla_id === undefined || ticket.slaId === parameters.sla_id) &&
    (parameters.duedate === undefined || ticket.dueDate === parameters.duedate)
  );
}

export const ticketUpdate = defineTicketIdChange({
  condition: 'update',
  summary: "Change a ticket's priority, help topic, SLA plan or due date, as an agent",
  what:
    'Sets one or more of `priority_id`, `topic_id`, `sla_id` and `duedate` (`null` clears it) ' +
    'as the staff panel edits them: `lastupdate` now, an `edited` event per changed field ' +
    'with its value before and after (`{"priority_id":[2,3]}`), and a new SLA plan or due ' +
    'date counts the SLA due time again. Values the ticket has already change nothing: 200, ' +
    'no event, `updated` unchanged. Every id is checked (400 naming the field); a due date ' +
    "must be in the future. A stale `if_unmodified_since` → 409 `conflict` with the ticket's " +
    'current `updated`, nothing written.',
  how: "edits them with osTicket's own code (the agent's edit permission, its events and SLA)",
  parameters: ticketUpdateParameters,
  example: {
    summary: 'Make ticket 6 High priority (3) and due on 1 December 2099, as agent 1',
    parameters: { ticket_id: 6, staff_id: 1, priority_id: 3, duedate: '2099-12-01 17:00:00' },
  },
  change(parameters) {
    if (FIELDS.every((name) => parameters[name] === undefined)) {
      const message = 'needs one or more of priority_id, topic_id, sla_id and duedate';
      throw new DeskgateError(
        'invalid_parameters',
        invalidParametersMessage([`parameters ${message}`]),
        {
          errors: [{ field: 'parameters', message }],
        },
      );
    }
    const given = Object.fromEntries(
      FIELDS.filter((name) => parameters[name] !== undefined).map((name) => [
        name,
        parameters[name],
      ]),
    );
    return {
      done: 'updated',
      outcome: (verb, ticketId) => `${verb} ${Object.keys(given).join(', ')} of ticket ${ticketId}`,
      own: {
        kind: 'update',
        ...(parameters.priority_id === undefined ? {} : { priorityId: parameters.priority_id }),
        ...(parameters.topic_id === undefined ? {} : { topicId: parameters.topic_id }),
        ...(parameters.sla_id === undefined ? {} : { slaId: parameters.sla_id }),
        ...(parameters.duedate === undefined ? {} : { dueDate: parameters.duedate }),
      },
      osticket: {
        route: 'update',
        body: given,
        fields: {
          priority_id: 'priority_id',
          topic_id: 'topic_id',
          sla_id: 'sla_id',
          duedate: 'duedate',
        },
        shows: (ticket) => hasValues(ticket, parameters),
      },
    };
  },
});
