import type { LoadOptions } from './load.ts';

/** The tickets the ticket writes spread over: an odd count, so each one's status alternates. */
export const CHANGED_TICKETS = Array.from({ length: 101 }, (_, i) => String(i + 1));

/**
 * ticket/`condition` as agent 1 over tickets 1–101 (made before), each request the next ticket,
 * each a real write: e.g. a status alternating between Closed (3) and Open (1) with `cycles`.
 */
export function ticketWriteBody(
  condition: string,
  parameters: Record<string, unknown>,
  cycles: Record<string, string[]> = {},
): LoadOptions['body'] {
  const template = JSON.stringify({
    query: 'ticket',
    condition,
    parameters: { ticket_id: '{ticket}', staff_id: 1, ...parameters },
  }).replace('"{ticket}"', '{ticket}');
  return { template, offset: 0, cycles: { ticket: CHANGED_TICKETS, ...cycles } };
}

/** ticket/add for user 1 (made first: the user-add scenario, or the set-up). */
export const TICKET_ADD_BODY = JSON.stringify({
  query: 'ticket',
  condition: 'add',
  parameters: {
    title: 'Bench ticket',
    subject: 'The printer on floor 2 is on fire.',
    user_id: 1,
    priority_id: 0,
    status_id: 0,
    dept_id: 0,
    sla_id: 0,
    topic_id: 0,
  },
});
