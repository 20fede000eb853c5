import { SlowEventWriteError } from '../data/events/write-origin.ts';
import { RejectedValueError } from '../data/store.ts';
import { type RecordedWrite, writes } from '../data/writes/writes.ts';
import { DeskgateError } from '../errors.ts';
import { MESSAGES } from '../messages.ts';
import type { OperationContext } from './operation.ts';

/** The context of an operation whose `uses` include the generic write path. */
export type WriteContext = Omit<OperationContext, 'data'> & {
  data: OperationContext<readonly [typeof writes]>['data'];
};

/** An id the database does not know → 400 naming the parameter; anything else unchanged. */
export function toParameterError(error: unknown): unknown {
  // The write held its events' numbers too long and was rolled back (decision 381): retry.
  if (error instanceof SlowEventWriteError) {
    return new DeskgateError('database_unavailable', MESSAGES.databaseUnavailable, {
      cause: error,
      headers: { 'Retry-After': '1' },
    });
  }
  if (!(error instanceof RejectedValueError)) return error;
  const field = `parameters.${error.field}`;
  return new DeskgateError('invalid_parameters', `Invalid parameters: ${field} ${error.message}.`, {
    errors: [{ field, message: error.message }],
  });
}

/**
 * Runs an operation's write through the generic write path: its rows, its audit entry and (with
 * `claim`) its stored answer in one transaction; a rejected value becomes a 400 naming the
 * parameter.
 */
export async function recordOperationWrite<Result, Answer>(
  context: WriteContext,
  write: Omit<RecordedWrite<Result, Answer>, 'actor'>,
): Promise<Answer> {
  const { apiKey, clientIp, operation } = context;
  try {
    return await context
      .data(writes)
      .recordWrite({ ...write, actor: { apiKeyId: apiKey.id, clientIp, operation } });
  } catch (error) {
    throw toParameterError(error);
  }
}
