import * as z from 'zod';
import { agents } from '../data/agents/agents.ts';
import { ticketInputs } from '../data/ticket-inputs/ticket-inputs.ts';
import type { Ticket, TicketChange, TicketChangeResult } from '../data/tickets/ticket.ts';
import { TicketConflictError, TicketNotCloseableError, tickets } from '../data/tickets/tickets.ts';
import { writes } from '../data/writes/writes.ts';
import { DeskgateError, type ErrorCode } from '../errors.ts';
import { MESSAGES } from '../messages.ts';
import {
  type BridgeAnswer,
  type BridgeRoute,
  callBridge,
  type FieldNames,
} from '../osticket-api/call-osticket.ts';
import { actingAgent } from './acting-agent.ts';
import { byLayout } from './by-layout.ts';
import { INT32_MAX, integerField } from './fields.ts';
import { fingerprintOf, writeOnce, writeOnceRemotely } from './idempotent-write.ts';
import { defineOperation, type TypedOperation } from './operation.ts';
import {
  OSTICKET_SETTLE_GRACE_MS,
  OSTICKET_WRITE_USES,
  type OsticketWriteContext,
  osticketBridgeOf,
  recordOsticketWrite,
  TICKET_WRITE,
  TICKET_WRITE_ERRORS,
} from './osticket-ticket-writes.ts';
import { escapeHtml } from './plain-text.ts';
import { idResponse } from './response-shapes.ts';
import { writeTicket } from './ticket-writes.ts';

const TIMESTAMP = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01]) ([01]\d|2[0-3]):[0-5]\d:[0-5]\d$/;

/** A `YYYY-MM-DD HH:MM:SS` time, as the tickets' times are answered. */
export const timestampField = () =>
  z.string().regex(TIMESTAMP, { error: 'must be a time as YYYY-MM-DD HH:MM:SS' });

/** What every change of a ticket takes (SPEC §8d). */
export const ticketChangeFields = {
  ticket_id: integerField(1, INT32_MAX).meta({ description: 'The ticket.' }),
  staff_id: integerField(1, INT32_MAX).optional().meta({
    description:
      "The active agent who acts: one the key was given (`--agent`); absent, the key's one agent.",
  }),
  if_unmodified_since: timestampField()
    .optional()
    .meta({
      description:
        "The ticket's `updated` as the caller read it (ticket/specific): when the ticket has " +
        'changed since, 409 `conflict` with its current `updated`, and nothing is written.',
      examples: ['2026-11-27 21:04:05'],
    }),
};

/** The optional comment of a change: kept as an internal note, as the staff panel does. */
export const commentsField = () =>
  z
    .string()
    .max(65_535, { error: 'must be at most 65535 characters' })
    .optional()
    .meta({ description: 'A comment, kept as an internal note (only when the ticket changes).' });

/** What every ticket change's definition shares (SPEC §8d): where it is, who may, what it reaches. */
export const TICKET_CHANGE = {
  ...TICKET_WRITE,
  // agents: the staff_id it acts as.
  uses: [...OSTICKET_WRITE_USES, agents],
} as const;

/** The error codes every ticket change can answer, besides the ones every call can. */
export const TICKET_CHANGE_ERRORS = [
  ...TICKET_WRITE_ERRORS,
  'conflict',
] as const satisfies readonly ErrorCode[];

/** The data layer's refusals of a change, as the caller sees them. */
function toChangeError(error: unknown): unknown {
  if (error instanceof TicketConflictError) {
    return new DeskgateError('conflict', MESSAGES.conflict, { extra: { updated: error.updated } });
  }
  if (error instanceof TicketNotCloseableError) {
    return new DeskgateError('not_closeable', `${MESSAGES.notCloseableHere} (${error.message})`);
  }
  return error;
}

/** How an operation names what its change did, for the audit and call logs and the answer. */
export interface ChangeReport<Answer> {
  outcome(result: { ticketId: number; entryId: number | null; changed: boolean }): string;
  answer(result: { ticketId: number; entryId: number | null }): Answer;
}

/**
 * A change on deskgate's own schema, through the generic write path: with an Idempotency-Key
 * done once (writeOnce), a retry answering as the first call did.
 */
function changeOwnTicket<Answer>(
  context: OsticketWriteContext,
  parameters: Readonly<Record<string, unknown>>,
  change: TicketChange,
  report: ChangeReport<Answer>,
): Promise<Answer> {
  return writeOnce(context.data(writes), context, {
    fingerprint: fingerprintOf(parameters),
    async write(claim) {
      try {
        return await writeTicket(context, {
          claim,
          run: (trx, at): Promise<TicketChangeResult> =>
            context.data(tickets).changeTicket(trx, change, at),
          // The audit names the note a ticket/note made, else the ticket changed.
          targetId: (result) =>
            String(change.kind === 'note' ? (result.entryId ?? result.ticketId) : result.ticketId),
          outcome: (result) => report.outcome(result),
          answer: (result) => report.answer(result),
        });
      } catch (error) {
        throw toChangeError(error);
      }
    },
  });
}

/** Seconds of slack on the recovery window: clocks of deskgate and osTicket's database differ. */
const RECOVERY_SLACK_SECONDS = 5;

/**
 * A reply's or note's recovery: the newest entry of `type` the agent posted on the ticket since
 * the claim (`ageMs` old), on the database's own clock (osTicket's rows carry its SYSTEM zone).
 */
export async function postedSinceClaim(
  context: OsticketWriteContext,
  ticket: Ticket,
  staffId: number,
  type: 'R' | 'N',
  ageMs: number,
): Promise<BridgeAnswer | undefined> {
  const seconds = Math.ceil(ageMs / 1000) + RECOVERY_SLACK_SECONDS;
  const ids = await context.data(ticketInputs).recentEntryIds(ticket.id, staffId, type, seconds);
  const entryId = ids.at(-1);
  return entryId === undefined ? undefined : recoveredAnswer(ticket, entryId);
}

/** One call to a route of deskgate's osTicket plugin, and how a retry after a lost answer recovers. */
export interface BridgeChange {
  route: BridgeRoute;
  body: Record<string, unknown>;
  fields: FieldNames;
  /**
   * After a call whose answer was lost (decision 240): the ticket as it is now, or undefined when
   * the change cannot be told from the ticket (a fresh call is made then).
   */
  recover(
    ticket: Ticket,
    ageMs: number,
  ): Promise<BridgeAnswer | undefined> | BridgeAnswer | undefined;
}

/**
 * A change in osTicket mode: deskgate's osTicket plugin makes it with osTicket's own code as the
 * agent (its permissions, events, alerts and mail), claimed first under an Idempotency-Key so
 * that no retry calls osTicket while an earlier call may still be writing (writeOnceRemotely).
 */
export function changeThroughOsticket<Answer>(
  context: OsticketWriteContext,
  parameters: Readonly<Record<string, unknown>>,
  change: BridgeChange,
  report: ChangeReport<Answer>,
): Promise<Answer> {
  const api = osticketBridgeOf(context);
  const ticketId = Number(change.body.ticket_id);
  return writeOnceRemotely(context.data(writes), context, {
    fingerprint: fingerprintOf(parameters),
    settleMs: api.timeoutMs + OSTICKET_SETTLE_GRACE_MS,
    async call() {
      try {
        return await callBridge(api, change.route, change.body, change.fields);
      } catch (error) {
        throw toChangeError(error);
      }
    },
    store: (result, claim) =>
      recordOsticketWrite(context, claim, {
        targetId: String(
          change.route === 'note' || change.route === 'reply'
            ? (result.entryId ?? result.ticketId)
            : result.ticketId,
        ),
        outcome: report.outcome({ ...result, changed: result.changed ?? true }),
        answer: report.answer(result),
      }),
    async recover(ageMs) {
      const ticket = await context.data(tickets).findTicket({ id: ticketId }, { notes: true });
      return ticket ? change.recover(ticket, ageMs) : undefined;
    },
  });
}

/** A change's own fields: what every change has besides (ticket, agent, address, precondition). */
type OwnFieldsOf<Change> = Change extends TicketChange
  ? Omit<Change, 'ticketId' | 'staffId' | 'ipAddress' | 'ifUnmodifiedSince'>
  : never;

/**
 * A change of a ticket, described for both layouts: what the own schema records, and the plugin
 * route osTicket's own code makes it with. Both are required, so the type checker says when one
 * is missing; which one runs is the layout's (operations never read it).
 */
export interface TicketChangeRequest<Answer> {
  staffId: number;
  own: OwnFieldsOf<TicketChange>;
  /** The route's fields besides staff_id, ticket_id, ip and if_unmodified_since, added here. */
  osticket: BridgeChange;
  report: ChangeReport<Answer>;
}

/** The parameters every change has (ticketChangeFields). */
interface ChangeParameters extends Readonly<Record<string, unknown>> {
  ticket_id: number;
  if_unmodified_since?: string | undefined;
}

/** Makes the change on the layout deskgate serves, with the fields every change shares. */
export function changeTicket<Answer>(
  context: OsticketWriteContext,
  parameters: ChangeParameters,
  { staffId, own, osticket, report }: TicketChangeRequest<Answer>,
): Promise<Answer> {
  const { ticket_id: ticketId, if_unmodified_since: ifUnmodifiedSince } = parameters;
  return byLayout(context, {
    own() {
      const change: TicketChange = {
        ...own,
        ticketId,
        staffId,
        ipAddress: context.clientIp,
        ifUnmodifiedSince,
      };
      return changeOwnTicket(context, parameters, change, report);
    },
    osticket: () =>
      changeThroughOsticket(
        context,
        parameters,
        {
          ...osticket,
          body: {
            staff_id: staffId,
            ticket_id: ticketId,
            ...osticket.body,
            ip: context.clientIp,
            ...(ifUnmodifiedSince === undefined ? {} : { if_unmodified_since: ifUnmodifiedSince }),
          },
          fields: {
            staff_id: 'staff_id',
            ticket_id: 'ticket_id',
            if_unmodified_since: 'if_unmodified_since',
            ...osticket.fields,
          },
        },
        report,
      ),
  });
}

/** A change's comment for the plugin: left out when there is none. */
export const commentsBody = (comments: string): { comments?: string } =>
  comments === '' ? {} : { comments };

/** A recovered call's answer: the ticket as it is, nothing said about a new entry. */
export function recoveredAnswer(ticket: Ticket, entryId: number | null = null): BridgeAnswer {
  return {
    ticketId: ticket.id,
    number: ticket.number,
    entryId,
    changed: true,
    updated: ticket.updated,
  };
}

/** The answer of a change that names the ticket (status, assign, transfer, update, close). */
export const TICKET_ID_ANSWER = {
  answer: (result: { ticketId: number }) => String(result.ticketId),
};

export const ticketIdResponse = () => idResponse('The ticket id.', '7');

/** Who may make a change of a ticket, as each change's description opens. */
const ACTS_AS_AN_AGENT =
  'Needs `tickets:write` and a key that may act as agent `staff_id` (403 `agent_not_allowed` ' +
  'naming the grant otherwise; a key of one agent may leave it out).';

/**
 * The description of a change answered with the ticket id: who may, `what` it does, and how
 * deskgate's osTicket plugin makes it in osTicket mode (`how`: "sets it with osTicket's own code (…)").
 */
const ticketIdChangeDescription = (what: string, how: string): string =>
  `${ACTS_AS_AN_AGENT} ${what} Answers the ticket id. Send an \`Idempotency-Key\` to make retries ` +
  `safe. In osTicket mode deskgate's osTicket plugin ${how}; 501 \`requires_osticket_bridge\` ` +
  'until the plugin is set up.';

/** The parameters of a change answered with the ticket id, as its handler reads them. */
type TicketIdChangeParameters = ChangeParameters & { staff_id?: number | undefined };

/** What a change answered with the ticket id makes, and how the logs name it. */
export interface TicketIdChange {
  /** The verb the outcome opens with when the ticket changed ("kept" when it did not). */
  done: string;
  /** The outcome for the audit and call logs, opening with `verb`. */
  outcome(verb: string, ticketId: number): string;
  own: OwnFieldsOf<TicketChange>;
  /** The plugin's route; `shows`: whether the ticket already shows the change (a lost answer's recovery). */
  osticket: Omit<BridgeChange, 'recover'> & { shows(ticket: Ticket): boolean };
}

/**
 * A change answered with the ticket id, as the key's agent `staff_id`; the key's own permission
 * is checked first: nothing about the ticket is looked at before it.
 */
function changeTicketAnsweringItsId(
  context: OsticketWriteContext,
  parameters: TicketIdChangeParameters,
  { done, outcome, own, osticket }: TicketIdChange,
): Promise<string> {
  const staffId = actingAgent(context, parameters.staff_id);
  const { shows, ...route } = osticket;
  return changeTicket(context, parameters, {
    staffId,
    own,
    osticket: {
      ...route,
      recover: (ticket) => (shows(ticket) ? recoveredAnswer(ticket) : undefined),
    },
    report: {
      outcome: ({ ticketId, changed }) => outcome(changed ? done : 'kept', ticketId),
      ...TICKET_ID_ANSWER,
    },
  });
}

type WithoutComments<Fields> = Fields extends unknown ? Omit<Fields, 'comments'> : never;

/** The changes that take a comment (status, assign, transfer). */
type CommentedFields = Extract<OwnFieldsOf<TicketChange>, { comments: string }>;

/**
 * A change with its optional comment added for both layouts: kept as an internal note (escaped)
 * on deskgate's own schema, and sent to the plugin only when there is one.
 */
export function withComments(
  comments: string | undefined,
  change: Omit<TicketIdChange, 'own'> & { own: WithoutComments<CommentedFields> },
): TicketIdChange {
  const text = comments?.trim() ?? '';
  const { own, osticket } = change;
  return {
    ...change,
    own: { ...own, comments: escapeHtml(text) },
    osticket: {
      ...osticket,
      body: { ...osticket.body, ...commentsBody(text) },
      fields: { ...osticket.fields, comments: 'comments' },
    },
  };
}

/** A change answered with the ticket id (status, assign, transfer, update), for defineTicketIdChange. */
export interface TicketIdChangeDefinition<Schema extends z.ZodType<TicketIdChangeParameters>> {
  condition: string;
  summary: string;
  /** What it does, between who may (ACTS_AS_AN_AGENT) and the answer (ticketIdChangeDescription). */
  what: string;
  /** How deskgate's osTicket plugin makes it: "sets it with osTicket's own code (…)". */
  how: string;
  parameters: Schema;
  /** The one example of the document, named `ticket-<condition>`. */
  example: { summary: string; parameters: Readonly<Record<string, unknown>> };
  /** Its error codes; TICKET_CHANGE_ERRORS when left out. */
  errors?: readonly ErrorCode[];
  /** The change the parameters ask for; it throws first on a combination they cannot have. */
  change(parameters: z.output<Schema>): TicketIdChange;
}

/** The operation of a change answered with the ticket id: ticket/<condition>. */
export function defineTicketIdChange<Schema extends z.ZodType<TicketIdChangeParameters>>(
  definition: TicketIdChangeDefinition<Schema>,
): TypedOperation<{ '*': Schema }, ReturnType<typeof ticketIdResponse>> {
  const { condition, summary, what, how, parameters, example, change } = definition;
  return defineOperation({
    ...TICKET_CHANGE,
    condition,
    summary,
    description: ticketIdChangeDescription(what, how),
    parameters: { '*': parameters },
    response: ticketIdResponse(),
    responseExample: '7',
    examples: [{ name: `ticket-${condition}`, ...example }],
    errors: definition.errors ?? TICKET_CHANGE_ERRORS,
    handle: ({ parameters: given }, context) =>
      changeTicketAnsweringItsId(context, given, change(given)),
  });
}
