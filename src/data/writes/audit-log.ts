import type { Generated, Kysely } from 'kysely';
import type { Actor } from '../../domain.ts';
import { type Param, prepareQuery } from '../common/prepared-query.ts';

/** deskgate's record of every write, in every layout (`deskgate_audit_log` beside osTicket's tables). */
export interface AuditLogTable {
  id: Generated<number>;
  at: string;
  api_key_id: number;
  client_ip: string;
  operation: string;
  target_id: string;
}

export interface AuditLogTables {
  audit_log: AuditLogTable;
}

const insertEntry = prepareQuery(
  (db: Kysely<AuditLogTables>, param: Param<Actor & { targetId: string; at: string }>) =>
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
  trx: Kysely<AuditLogTables>,
  actor: Actor,
  targetId: string,
  at: string,
): Promise<void> {
  await insertEntry(trx, { ...actor, targetId, at });
}
