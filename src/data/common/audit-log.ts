import type { Kysely } from 'kysely';
import type { Actor } from '../../domain.ts';
import type { OwnTables } from '../schema.ts';
import { type Param, prepareQuery } from './prepared-query.ts';

const insertEntry = prepareQuery(
  (db: Kysely<OwnTables>, param: Param<Actor & { targetId: string; at: string }>) =>
    db.insertInto('audit_log').values({
      at: param('at'),
      api_key_id: param('apiKeyId'),
      client_ip: param('clientIp'),
      operation: param('operation'),
      target_id: param('targetId'),
    }),
);

/** Records a successful write; called inside the write's transaction so neither exists without the other. */
export async function insertAuditEntry(
  trx: Kysely<OwnTables>,
  actor: Actor,
  targetId: string,
  at: string,
): Promise<void> {
  await insertEntry(trx, { ...actor, targetId, at });
}
