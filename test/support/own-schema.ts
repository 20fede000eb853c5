import type { OwnApiKeyTables } from '../../src/data/api-keys/own-api-keys.ts';
import type { OwnFaqTables } from '../../src/data/faqs/own-faqs.ts';
import type { OwnTopicTables } from '../../src/data/topics/own-topics.ts';
import type { OwnUserTables } from '../../src/data/users/own-users.ts';
import type { AuditLogTables } from '../../src/data/writes/audit-log.ts';
import type { IdempotencyTables } from '../../src/data/writes/idempotency-records.ts';

export type { ApiKeyTable } from '../../src/data/api-keys/own-api-keys.ts';
export type { TopicTable } from '../../src/data/topics/own-topics.ts';
export type {
  UserAccountTable,
  UserEmailTable,
  UserTable,
} from '../../src/data/users/own-users.ts';
export type { AuditLogTable } from '../../src/data/writes/audit-log.ts';
export type { IdempotencyKeyTable } from '../../src/data/writes/idempotency-records.ts';

/** deskgate's own schema, every entity's tables, as tests reading rows directly see it. */
export type Database = OwnTopicTables &
  OwnUserTables &
  OwnApiKeyTables &
  OwnFaqTables &
  AuditLogTables &
  IdempotencyTables;
