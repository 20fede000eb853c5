import type { WriteTransaction } from '../data/entity.ts';
import { type RecordedWrite, writes } from '../data/writes/writes.ts';
import { fingerprintOf, writeOnce } from './idempotent-write.ts';
import { WRITE_METHODS } from './operation.ts';
import { recordOperationWrite, type WriteContext } from './record-operation-write.ts';

/**
 * What the definitions of department/add and sla/add share: an admin's write, POST (PUT
 * accepted), done once per Idempotency-Key.
 */
export const ADMIN_ADD = {
  methods: WRITE_METHODS,
  scope: 'admin',
  nothingFound: false,
  idempotencyKey: true,
  errors: ['idempotency_mismatch'],
} as const;

/** What every admin write reaches besides its own entity: the generic write path. */
export type AdminWriteContext = WriteContext;

/** department/add, sla/add and sla/delete: the generic write path, in every layout. */
export function writeAdmin<Result, Answer>(
  context: AdminWriteContext,
  write: Omit<RecordedWrite<Result, Answer>, 'actor'>,
): Promise<Answer> {
  return recordOperationWrite(context, write);
}

/**
 * department/add and sla/add: `insert` once per Idempotency-Key (a retry with the same
 * `parameters` answers the first id), on the generic write path; answers the new id.
 */
export function addOnce(
  context: AdminWriteContext,
  parameters: Readonly<Record<string, unknown>>,
  noun: string,
  insert: (trx: WriteTransaction) => Promise<number>,
): Promise<string> {
  return writeOnce(context.data(writes), context, {
    fingerprint: fingerprintOf(parameters),
    write: (claim) =>
      writeAdmin(context, {
        claim,
        run: insert,
        targetId: String,
        outcome: (id) => `created ${noun} ${id}`,
        answer: String,
      }),
  });
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
