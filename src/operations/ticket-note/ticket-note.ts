import * as z from 'zod';
import { actingAgent } from '../acting-agent.ts';
import { defineOperation } from '../operation.ts';
import { escapeHtml, stripTags, textField } from '../plain-text.ts';
import { idResponse } from '../response-shapes.ts';
import {
  type ChangeReport,
  changeTicket,
  postedSinceClaim,
  TICKET_CHANGE,
  TICKET_CHANGE_ERRORS,
  ticketChangeFields,
} from '../ticket-changes.ts';

export const ticketNoteParameters = z.strictObject({
  ...ticketChangeFields,
  body: textField(65_535, 'The note, plain text (stored HTML-escaped).'),
  title: z
    .string()
    .trim()
    .max(255, { error: 'must be at most 255 characters' })
    .optional()
    .meta({ description: "The note's title (plain text; absent: none)." }),
});

const report: ChangeReport<string> = {
  outcome: ({ ticketId, entryId }) => `noted on ticket ${ticketId} (entry ${entryId})`,
  answer: ({ entryId }) => String(entryId),
};

export const ticketNote = defineOperation({
  ...TICKET_CHANGE,
  condition: 'note',
  summary: 'Post an internal note on a ticket, as an agent; answers the entry id',
  description:
    'Needs `tickets:write` and a key that may act as agent `staff_id` (403 `agent_not_allowed` ' +
    'naming the grant otherwise; a key of one agent may leave it out). Adds an internal note ' +
    '(entry type `N`, the agent as its poster) to the ticket `ticket_id`: agents see it, the ' +
    'user never does, and deskgate answers it only to keys with the notes grant. The ticket ' +
    'itself does not change (`updated` stays). Every id is checked (400 naming the field); a ' +
    "stale `if_unmodified_since` → 409 `conflict` with the ticket's current `updated`. Answers " +
    'the new entry id. Send an `Idempotency-Key` to make retries safe: the same key answers the ' +
    "first note's id, never a second note. In osTicket mode deskgate's osTicket plugin posts " +
    "it with osTicket's own code (the agent's permissions, the activity alerts); 501 " +
    '`requires_osticket_bridge` (nothing written) until the plugin is set up.',
  parameters: { '*': ticketNoteParameters },
  response: idResponse('The new entry id.', '13'),
  responseExample: '13',
  examples: [
    {
      name: 'ticket-note',
      summary: 'Leave an internal note on ticket 7 as agent 1',
      parameters: {
        ticket_id: 7,
        staff_id: 1,
        title: 'Called the customer',
        body: 'They will send the serial number tomorrow.',
      },
    },
  ],
  errors: TICKET_CHANGE_ERRORS,
  handle({ parameters }, context) {
    // The key's own permission first: nothing about the ticket is looked at before it.
    const staffId = actingAgent(context, parameters.staff_id);
    const title = parameters.title === undefined ? '' : stripTags(parameters.title).trim();
    return changeTicket(context, parameters, {
      staffId,
      own: {
        kind: 'note',
        title: title === '' ? null : title,
        body: escapeHtml(parameters.body),
      },
      osticket: {
        route: 'note',
        body: { note: parameters.body, ...(title === '' ? {} : { title }) },
        fields: { note: 'body', title: 'title' },
        // The note an unanswered call posted: the agent's, since the claim.
        recover: (ticket, ageMs) => postedSinceClaim(context, ticket, staffId, 'N', ageMs),
      },
      report,
    });
  },
});
