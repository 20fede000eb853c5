import { DeskgateError } from '../errors.ts';
import { notesGrantMessage } from '../messages.ts';
import { isOsticketKey, osticketGrantCommand } from './acting-agent.ts';
import type { OperationContext } from './operation.ts';

/**
 * Tasks are agent-internal (osTicket's "Create Task" copies an internal note into the task's
 * description): their reads need the notes grant as well as `tickets:read` (decision 322). The
 * refusal names the command that gives it: the osTicket key's whole grant with `--notes`, or on
 * the own schema a new key (notes are given when a key is made).
 */
export function requireNotesGrant(
  { apiKey, config }: Pick<OperationContext, 'apiKey' | 'config'>,
  operation: string,
): void {
  if (apiKey.notes) return;
  const fix = isOsticketKey(config, apiKey)
    ? osticketGrantCommand(apiKey, { notes: true })
    : `deskgate keys create --name NAME --scope ${apiKey.scopes.join(',')} --notes`;
  throw new DeskgateError('insufficient_scope', notesGrantMessage(operation, fix));
}
