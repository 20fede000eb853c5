import type { Generated } from 'kysely';
import type { OwnTables } from '../schema.ts';
import type { OsticketTicketTables } from '../tickets/osticket-ticket-tables.ts';

/**
 * osTicket's tables as osTicket 1.18.1's installer creates them (../shared/osticket/
 * schema-1.18.1.sql), by their names without the table prefix (the TablePrefixPlugin adds it),
 * and deskgate's own tables beside them. Only the columns deskgate reads or writes are listed.
 * DATETIME columns come back as the text the database holds (the pool sets `dateStrings`).
 */
export interface HelpTopicTable {
  topic_id: Generated<number>;
  topic_pid: number;
  ispublic: number;
  /** Bit value 2: active; 4: archived; neither: disabled (osTicket dropped `isactive` in 1.11). */
  flags: number | null;
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

/** Custom forms; the user contact form is the one of type `U`. */
export interface OstFormTable {
  id: Generated<number>;
  type: string;
}

export interface OstFormFieldTable {
  id: Generated<number>;
  form_id: number;
  flags: number | null;
  type: string;
  name: string;
  sort: number;
}

/** One filled-in form, here the contact form of one user (`object_type` `U`). */
export interface OstFormEntryTable {
  id: Generated<number>;
  form_id: number;
  object_id: number | null;
  object_type: string;
  sort: number;
  extra: string | null;
  created: string;
  updated: string;
}

export interface OstFormEntryValuesTable {
  entry_id: number;
  field_id: number;
  value: string | null;
  value_id: number | null;
}

/** osTicket's full-text index for staff search (`ost__search`). */
export interface OstSearchTable {
  object_type: string;
  object_id: number;
  title: string | null;
  content: string | null;
}

export interface OstOrganizationTable {
  id: Generated<number>;
}

/** What osTicket's admin panel shows under Dashboard → System Logs. */
export interface OstSyslogTable {
  log_id: Generated<number>;
  log_type: 'Debug' | 'Warning' | 'Error';
  title: string;
  log: string;
  logger: string;
  ip_address: string;
  created: string;
  updated: string;
}

export interface OsticketDatabase extends OwnTables, OsticketTicketTables {
  help_topic: HelpTopicTable;
  user: OstUserTable;
  user_email: OstUserEmailTable;
  user_account: OstUserAccountTable;
  user__cdata: OstUserCdataTable;
  api_key: OstApiKeyTable;
  form: OstFormTable;
  form_field: OstFormFieldTable;
  form_entry: OstFormEntryTable;
  form_entry_values: OstFormEntryValuesTable;
  _search: OstSearchTable;
  organization: OstOrganizationTable;
  syslog: OstSyslogTable;
}

/** Where deskgate's own tables live in an osTicket database: beside osTicket's, under their own prefix. */
export const OWN_TABLE_NAMES: ReadonlyMap<string, string> = new Map([
  ['audit_log', 'deskgate_audit_log'],
  ['idempotency_keys', 'deskgate_idempotency_keys'],
]);
