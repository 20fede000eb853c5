import {
  type Probe,
  type TicketWriteValues,
  ticketAddProbe,
  ticketChangeProbes,
} from './check-probes.ts';
import type { Reading } from './read-answer.ts';
import { readThrowawayTickets, type ThrowawayTicket } from './ticket-write-facts.ts';

export type Side = 'original' | 'deskgate';

/** A throwaway ticket the check opened, and how it was left. */
export interface CreatedTicket extends ThrowawayTicket {
  side: Side;
  /** Closed by the check's own clean-up after the compared requests left it open. */
  closedAgain: boolean;
}

interface ProbeOutcome {
  result: { notes: string[] };
  original: Reading;
  deskgate: Reading;
}

export interface TicketWriteCheck {
  values: TicketWriteValues;
  /** The tag of this check's throwaway users, put into the tickets' subject lines. */
  tag: string;
  databaseUrl: string;
  prefix: string;
  /** Each side's throwaway user from user/add. */
  userIds: Partial<Record<Side, number>>;
  /** Sends one probe to both sides and records its result. */
  run(probe: Probe): Promise<ProbeOutcome>;
  /** Sends a body to deskgate alone (the clean-up's close). */
  sendDeskgate(body: unknown): Promise<Reading>;
  /** Sends a body to the original alone. */
  sendOriginal(body: unknown): Promise<Reading>;
}

const SIDES: readonly Side[] = ['original', 'deskgate'];

async function ticketsOf(check: TicketWriteCheck): Promise<Partial<Record<Side, ThrowawayTicket>>> {
  const ids = SIDES.map((side) => check.userIds[side]).filter((id) => id !== undefined);
  const found = await readThrowawayTickets(check.databaseUrl, check.prefix, ids);
  const bySide: Partial<Record<Side, ThrowawayTicket>> = {};
  for (const side of SIDES) {
    const userId = check.userIds[side];
    const ticket = userId === undefined ? undefined : found.get(userId);
    if (ticket) bySide[side] = ticket;
  }
  return bySide;
}

/**
 * A throwaway ticket on each side, opened, answered and closed with the same requests (SPEC §8c:
 * every difference checked), sequentially. Whatever the compared requests left open is closed
 * again, through deskgate (osTicket's own close) or else the original; resolves to the tickets
 * the check opened and how each was left.
 */
export async function checkTicketWrites(check: TicketWriteCheck): Promise<CreatedTicket[]> {
  const { original: originalUser, deskgate: deskgateUser } = check.userIds;
  if (originalUser === undefined || deskgateUser === undefined) return [];
  const added = await check.run(
    ticketAddProbe(check.values, check.tag, { original: originalUser, deskgate: deskgateUser }),
  );
  let tickets = await ticketsOf(check);
  const answered = added.original.outcome === 'success' ? String(added.original.data) : undefined;
  if (tickets.original && answered !== undefined && answered !== String(tickets.original.id))
    added.result.notes.push(
      `the original answered ${answered}, the highest ticket id; the ticket it opened is ${tickets.original.id}`,
    );
  if (tickets.original && tickets.deskgate) {
    const ids = { original: tickets.original.id, deskgate: tickets.deskgate.id };
    const [reply, closeAsOriginal, closeAsGuide] = ticketChangeProbes(check.values, ids) as [
      Probe,
      Probe,
      Probe,
    ];
    await check.run(reply);
    await check.run(closeAsOriginal);
    tickets = await ticketsOf(check);
    // Only while deskgate's ticket is open: closing a closed ticket is another question.
    if (!tickets.deskgate?.closed) await check.run(closeAsGuide);
  } else {
    const missing = SIDES.filter((side) => !tickets[side]).join(' and ');
    added.result.notes.push(
      `ticket/reply and ticket/close not compared: no throwaway ticket on the ${missing} side`,
    );
  }

  tickets = await ticketsOf(check);
  const closedAgain = new Set<Side>();
  for (const side of SIDES) {
    const ticket = tickets[side];
    if (!ticket || ticket.closed) continue;
    const parameters = {
      ticket_id: ticket.id,
      body: 'deskgate osticket check: closed again.',
      staff_id: check.values.staffId,
      status_id: check.values.closedStatusId,
    };
    const viaDeskgate = await check.sendDeskgate({
      query: 'ticket',
      condition: 'close',
      parameters,
    });
    if (viaDeskgate.outcome !== 'success')
      await check.sendOriginal({
        query: 'ticket',
        condition: 'close',
        parameters: {
          ...parameters,
          team_id: check.values.teamId,
          dept_id: check.values.deptId,
          topic_id: check.values.topicId,
          username: check.values.username,
        },
      });
    closedAgain.add(side);
  }
  if (closedAgain.size) tickets = await ticketsOf(check);
  return SIDES.flatMap((side) => {
    const ticket = tickets[side];
    return ticket ? [{ ...ticket, side, closedAgain: closedAgain.has(side) && ticket.closed }] : [];
  });
}
