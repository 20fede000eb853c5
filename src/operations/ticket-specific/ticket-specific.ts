import * as z from 'zod';
import { tickets } from '../../data/tickets/tickets.ts';
import { INT32_MAX, integerField } from '../fields.ts';
import { defineOperation } from '../operation.ts';
import { TICKET_EXAMPLE, ticketViewSchema, toTicketView } from '../views/ticket-view.ts';

/** `id` or `number`, never one value read as both (the original's `ticket_id = X OR number = X`). */
export const ticketSpecificParameters = z
  .strictObject({
    id: integerField(1, INT32_MAX).optional().meta({ description: "The ticket's id." }),
    number: z
      .string()
      .min(1, { error: 'must not be empty' })
      .max(20, { error: 'must be at most 20 characters' })
      .optional()
      .meta({
        description: "The ticket's number, as the help desk shows it.",
        examples: ['000007'],
      }),
  })
  .superRefine((value, context) => {
    if ((value.id === undefined) === (value.number === undefined)) {
      context.addIssue({
        code: 'custom',
        path: [],
        message: 'must hold exactly one of id and number',
      });
    }
  })
  // The rule above, in the document: of the two properties, exactly one.
  .meta({
    description: 'Exactly one of `id` and `number`.',
    minProperties: 1,
    maxProperties: 1,
  });

export const ticketSpecific = defineOperation({
  query: 'ticket',
  condition: 'specific',
  methods: ['GET'],
  scope: 'tickets:read',
  summary: 'Look up one ticket, by id or by number, with its messages and responses',
  description:
    'Needs `tickets:read`. `parameters.id` (the ticket id) or `parameters.number` (its number), ' +
    'exactly one: the original read one value as either and could match two tickets. The ' +
    "ticket's own columns, `subject`, `priority` and `entries` (messages and responses, oldest " +
    'first; internal notes only for a key made with `--notes`). Not found → 204.',
  parameters: { '*': ticketSpecificParameters },
  response: z
    .strictObject({ total: z.literal(1), tickets: z.array(ticketViewSchema).length(1) })
    .meta({ description: 'The ticket found, as a list of one.' }),
  responseExample: { total: 1, tickets: [TICKET_EXAMPLE] },
  examples: [
    { name: 'by-id', summary: 'By id', parameters: { id: 7 } },
    { name: 'by-number', summary: 'By number', parameters: { number: '000007' } },
  ],
  uses: [tickets],
  nothingFound: true,
  async handle({ parameters }, { data, apiKey }) {
    const lookup =
      parameters.number === undefined ? { id: parameters.id ?? 0 } : { number: parameters.number };
    const ticket = await data(tickets).findTicket(lookup, { notes: apiKey.notes });
    return ticket && { total: 1 as const, tickets: [toTicketView(ticket)] };
  },
});
