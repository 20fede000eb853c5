import { tickets } from '../data/tickets/tickets.ts';
import { type RecordedWrite, writes } from '../data/writes/writes.ts';
import { DeskgateError } from '../errors.ts';
import { MESSAGES } from '../messages.ts';
import { byLayout } from './by-layout.ts';
import { fingerprintOf, writeOnce } from './idempotent-write.ts';
import type { OperationContext } from './operation.ts';
import { recordOperationWrite } from './record-operation-write.ts';

/** What every ticket write reaches: the tickets, and the generic write path. */
export const TICKET_WRITE_USES = [tickets, writes] as const;
/** The context of an operation whose `uses` include TICKET_WRITE_USES. */
export type TicketWriteContext = Omit<OperationContext, 'data'> & {
  data: OperationContext<typeof TICKET_WRITE_USES>['data'];
};

/**
 * A guard: in osTicket mode ticket writes are osTicket's own code's (SPEC §8b; the handlers go
 * through osticket-ticket-writes.ts there), so deskgate's own ticket writes never run; 501.
 */
export function assertTicketWritesHere(context: Pick<OperationContext, 'config'>): void {
  byLayout(context, {
    own: () => undefined,
    osticket: () => {
      throw new DeskgateError('requires_osticket_bridge', MESSAGES.requiresOsticketBridge);
    },
  });
}

/**
 * Runs a ticket write through the generic write path (its audit entry, and with `claim` its
 * stored answer, in the same transaction) where it may run, else the 501 above; an unknown id
 * becomes a 400 naming the parameter.
 */
export async function writeTicket<Result, Answer>(
  context: TicketWriteContext,
  write: Omit<RecordedWrite<Result, Answer>, 'actor'>,
): Promise<Answer> {
  assertTicketWritesHere(context);
  return recordOperationWrite(context, write);
}

/**
 * writeTicket once per Idempotency-Key (writeOnce): a retry with the same `parameters` answers as
 * the first call did.
 */
export function writeTicketOnce<Result, Answer>(
  context: TicketWriteContext,
  parameters: Readonly<Record<string, unknown>>,
  write: Omit<RecordedWrite<Result, Answer>, 'actor' | 'claim'>,
): Promise<Answer> {
  return writeOnce(context.data(writes), context, {
    fingerprint: fingerprintOf(parameters),
    write: (claim) => writeTicket(context, { claim, ...write }),
  });
}
