import { type RecordedWrite, writes } from '../data/writes/writes.ts';
import type { OperationContext } from './operation.ts';
import { toParameterError } from './ticket-writes.ts';

/** What every admin write reaches besides its own entity: the generic write path. */
export type AdminWriteContext = Omit<OperationContext, 'data'> & {
  data: OperationContext<readonly [typeof writes]>['data'];
};

/**
 * Runs department/add, sla/add or sla/delete through the generic write path: its rows, its
 * audit entry and (with `claim`) its stored answer in one transaction, in every layout; a
 * rejected value becomes a 400 naming the parameter.
 */
export async function writeAdmin<Result, Answer>(
  context: AdminWriteContext,
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

const OSTICKET_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
};

/**
 * osTicket's Format::htmlchars (include/class.format.php:386-411): htmlspecialchars with
 * ENT_COMPAT and no double encoding, so `'` stays and an entity already in the text is kept.
 */
export function osticketHtmlChars(text: string): string {
  return text.replace(
    /&(?!(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});)|[<>"]/g,
    (character) => OSTICKET_ESCAPES[character] ?? character,
  );
}
