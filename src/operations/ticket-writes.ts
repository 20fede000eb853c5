import { RejectedValueError } from '../data/store.ts';
import type { Actor } from '../domain.ts';
import { DeskgateError } from '../errors.ts';
import { MESSAGES } from '../messages.ts';
import type { OperationContext } from './operation.ts';

/**
 * osTicket mode: ticket writes are osTicket's own code's to do (SPEC §8b); until deskgate's
 * osTicket bridge is set up they answer 501 and write nothing.
 */
export function assertTicketWritesHere({ config }: OperationContext): void {
  if (config.schema === 'osticket') {
    throw new DeskgateError('requires_osticket_bridge', MESSAGES.requiresOsticketBridge);
  }
}

/** An id the database does not know → 400 naming the parameter; anything else unchanged. */
export function toParameterError(error: unknown): unknown {
  if (!(error instanceof RejectedValueError)) return error;
  const field = `parameters.${error.field}`;
  return new DeskgateError('invalid_parameters', `Invalid parameters: ${field} ${error.message}.`, {
    errors: [{ field, message: error.message }],
  });
}

/**
 * Runs a ticket write where it may run (else the 501 above), as the caller's key from its
 * address, an unknown id becoming a 400 naming the parameter.
 */
export async function writeTicket<T>(
  context: OperationContext,
  operation: string,
  write: (actor: Actor) => Promise<T>,
): Promise<T> {
  assertTicketWritesHere(context);
  try {
    return await write({ apiKeyId: context.apiKey.id, clientIp: context.clientIp, operation });
  } catch (error) {
    throw toParameterError(error);
  }
}
