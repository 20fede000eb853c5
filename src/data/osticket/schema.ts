import type { Generated } from 'kysely';
import type { OwnTables } from '../schema.ts';

/**
 * osTicket's tables as an osTicket 1.17/1.18 install creates them, by their names without the
 * table prefix (the TablePrefixPlugin adds it), and deskgate's own tables beside them.
 * Only the columns deskgate reads or writes are listed.
 */
export interface HelpTopicTable {
  topic_id: Generated<number>;
  topic_pid: number;
  isactive: number;
  ispublic: number;
  sort: number;
  topic: string;
  notes: string | null;
  created: string;
  updated: string;
}

export interface OstUserTable {
  id: Generated<number>;
  org_id: number;
  default_email_id: number;
  status: number;
  name: string;
  created: string;
  updated: string;
}

export interface OstUserEmailTable {
  id: Generated<number>;
  user_id: number;
  flags: number;
  address: string;
}

export interface OstUserAccountTable {
  id: Generated<number>;
  user_id: number;
  status: number;
  timezone: string | null;
  lang: string | null;
  username: string | null;
  passwd: string | null;
  backend: string | null;
  extra: string | null;
  registered: string | null;
}

/** Present once osTicket has materialised its contact form. */
export interface OstUserCdataTable {
  user_id: number;
  email: string | null;
  name: string | null;
  phone: string | null;
  notes: string | null;
}

export interface OstApiKeyTable {
  id: Generated<number>;
  isactive: number;
  ipaddr: string;
  /** Stored in clear by osTicket. */
  apikey: string;
  can_create_tickets: number;
  can_exec_cron: number;
  notes: string | null;
  updated: string;
  created: string;
}

export interface OsticketDatabase extends OwnTables {
  help_topic: HelpTopicTable;
  user: OstUserTable;
  user_email: OstUserEmailTable;
  user_account: OstUserAccountTable;
  user__cdata: OstUserCdataTable;
  api_key: OstApiKeyTable;
}

/** Where deskgate's own tables live in an osTicket database: beside osTicket's, under their own prefix. */
export const OWN_TABLE_NAMES: ReadonlyMap<string, string> = new Map([
  ['audit_log', 'deskgate_audit_log'],
  ['idempotency_keys', 'deskgate_idempotency_keys'],
]);
