import type { Kysely } from 'kysely';
import type { Actor } from '../../domain.ts';
import type { OwnTables } from '../schema.ts';

/** Records a successful write; called inside the write's transaction so neither exists without the other. */
export async function insertAuditEntry(
  trx: Kysely<OwnTables>,
  actor: Actor,
  targetId: string,
  at: string,
): Promise<void> {
  await trx
    .insertInto('audit_log')
    .values({
      at,
      api_key_id: actor.apiKeyId,
      client_ip: actor.clientIp,
      operation: actor.operation,
      target_id: targetId,
    })
    .execute();
}
