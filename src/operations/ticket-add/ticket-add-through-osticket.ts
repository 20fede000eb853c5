import type * as z from 'zod';
import { ticketInputs } from '../../data/ticket-inputs/ticket-inputs.ts';
import { tickets } from '../../data/tickets/tickets.ts';
import { writes } from '../../data/writes/writes.ts';
import { DeskgateError } from '../../errors.ts';
import { MESSAGES } from '../../messages.ts';
import { callBridge, openStockTicket } from '../../osticket-api/call-osticket.ts';
import { actingAgent } from '../acting-agent.ts';
import { type Claim, fingerprintOf, writeOnceRemotely } from '../idempotent-write.ts';
import {
  OSTICKET_SETTLE_GRACE_MS,
  type OsticketWriteContext,
  osticketApiOf,
  recordOsticketWrite,
  rejectParameter,
} from '../osticket-ticket-writes.ts';
import { stripTags } from '../plain-text.ts';
import type { ticketAddParameters } from './ticket-add.ts';

type Parameters = z.output<typeof ticketAddParameters>;

/** Seconds of slack on the recovery window: clocks of deskgate and the database differ a little. */
const RECOVERY_SLACK_SECONDS = 5;

/**
 * The agent a ticket/add through the plugin acts as (SPEC §4a, decision 312): the key's one
 * agent; for a key of several or any, DESKGATE_OSTICKET_BRIDGE_STAFF_ID where the key may act as
 * it. A key of no agent opens tickets only with osTicket's own choices (403 naming the grant).
 */
function pluginAgent(context: OsticketWriteContext, bridgeStaffId: number | undefined): number {
  const { agents } = context.apiKey;
  if (agents !== 'any' && agents.length === 1 && agents[0] !== undefined) return agents[0];
  if (agents !== 'any' && agents.length === 0) return actingAgent(context, undefined);
  if (bridgeStaffId === undefined) {
    throw new DeskgateError('requires_osticket_bridge', MESSAGES.requiresBridgeAgent);
  }
  return actingAgent(context, bridgeStaffId);
}

/**
 * ticket/add in osTicket mode (decision 240): osTicket's stock api/tickets.json when department,
 * SLA and status are what osTicket would choose itself, else deskgate's osTicket plugin. Answers
 * the new ticket's id and number.
 */
export async function addTicketThroughOsticket(
  parameters: Parameters,
  context: OsticketWriteContext,
): Promise<{ id: string; number: string }> {
  const api = osticketApiOf(context);
  const inputs = context.data(ticketInputs);
  const contact = await inputs.contactOf(parameters.user_id);
  if (!contact) rejectParameter('user_id', 'is not an existing user');
  const choices = await inputs.choicesFor(parameters.topic_id ?? 0);
  if (!choices) rejectParameter('topic_id', 'is not an existing help topic');
  const priorityId = parameters.priority_id ?? 0;
  if (priorityId !== 0 && !(await inputs.priorityExists(priorityId))) {
    rejectParameter('priority_id', 'is not an existing priority');
  }
  const asked = {
    dept_id: parameters.dept_id ?? 0,
    sla_id: parameters.sla_id ?? 0,
    status_id: parameters.status_id ?? 0,
  };
  const chosen = { dept_id: choices.deptId, sla_id: choices.slaId, status_id: choices.statusId };
  const throughPlugin = (Object.keys(asked) as (keyof typeof asked)[]).some(
    (name) => asked[name] !== 0 && asked[name] !== chosen[name],
  );
  if (throughPlugin && !api.bridge) {
    throw new DeskgateError('requires_osticket_bridge', MESSAGES.requiresOsticketPlugin);
  }
  const staffId = throughPlugin ? pluginAgent(context, api.bridgeStaffId) : undefined;
  const title = parameters.title;
  const numberOf = async (id: number) =>
    (await context.data(tickets).findTicket({ id }, { notes: false }))?.number ?? '';

  const open = async (): Promise<{ id: number; number: string }> => {
    if (throughPlugin) {
      const created = await callBridge(
        api,
        'tickets',
        {
          staff_id: staffId,
          user_id: parameters.user_id,
          subject: title,
          message: parameters.subject,
          ip: context.clientIp,
          ...(parameters.topic_id ? { topic_id: parameters.topic_id } : {}),
          ...(priorityId ? { priority_id: priorityId } : {}),
          ...Object.fromEntries(Object.entries(asked).filter(([, value]) => value !== 0)),
        },
        {
          user_id: 'user_id',
          subject: 'title',
          message: 'subject',
          topic_id: 'topic_id',
          priority_id: 'priority_id',
          dept_id: 'dept_id',
          sla_id: 'sla_id',
          status_id: 'status_id',
        },
      );
      return { id: created.ticketId, number: created.number };
    }
    const number = await openStockTicket(
      api,
      {
        email: contact.email,
        name: contact.name,
        subject: title,
        // Always an RFC 2397 plain-text URI: osTicket's API reads a message starting
        // `data:text/html,` as HTML, whatever deskgate documents (decision 325).
        message: `data:text/plain;charset=utf-8,${parameters.subject}`,
        ip: context.clientIp,
        ...(parameters.topic_id ? { topicId: parameters.topic_id } : {}),
        ...(priorityId ? { priorityId } : {}),
      },
      {
        subject: 'title',
        message: 'subject',
        email: 'user_id',
        name: 'user_id',
        topicId: 'topic_id',
        priorityId: 'priority_id',
      },
    );
    const id = await inputs.ticketIdByNumber(number, parameters.user_id);
    if (id === undefined) {
      throw new DeskgateError('osticket_unavailable', MESSAGES.osticketUnavailable, {
        cause: new Error(`osTicket answered number ${number}, but no ticket of the user has it`),
      });
    }
    return { id, number };
  };

  const record = (
    created: { id: number; number: string },
    claim: (Claim & { pending: true }) | undefined,
  ) =>
    recordOsticketWrite(context, claim, {
      targetId: String(created.id),
      outcome: `created ticket ${created.id} (number ${created.number})`,
      answer: String(created.id),
    });

  const id = await writeOnceRemotely(context.data(writes), context, {
    fingerprint: fingerprintOf(parameters),
    settleMs: api.timeoutMs + OSTICKET_SETTLE_GRACE_MS,
    call: open,
    store: record,
    // The ticket an unanswered call made: the user's, with this subject, made since the claim.
    async recover(ageMs) {
      const seconds = Math.ceil(ageMs / 1000) + RECOVERY_SLACK_SECONDS;
      for (const id of await inputs.recentTicketIds(parameters.user_id, seconds)) {
        const ticket = await context.data(tickets).findTicket({ id }, { notes: false });
        if (ticket && stripTags(ticket.subject).trim() === stripTags(title).trim())
          return { id, number: ticket.number };
      }
      return undefined;
    },
  });
  return { id, number: await numberOf(Number(id)) };
}
