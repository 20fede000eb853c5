import { RejectedValueError } from '../data/store.ts';
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
