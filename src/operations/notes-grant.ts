import type { ApiKey } from '../domain.ts';
import { DeskgateError } from '../errors.ts';
import { notesGrantMessage } from '../messages.ts';

/**
 * Tasks are agent-internal (osTicket's "Create Task" copies an internal note into the task's
 * description): their reads need the notes grant as well as `tickets:read` (decision 322).
 */
export function requireNotesGrant(apiKey: ApiKey, operation: string): void {
  if (!apiKey.notes) {
    throw new DeskgateError('insufficient_scope', notesGrantMessage(operation));
  }
}
