import type { Actor } from '../../domain.ts';
import { defineEntity, tablesOf, type WriteTransaction } from '../entity.ts';
import { insertSyslogEntry, type OsticketSyslogTables } from './osticket-syslog.ts';

/**
 * The log of calls a layout keeps: osTicket's `syslog` (Dashboard → System Logs) under
 * DESKGATE_OSTICKET_SYSLOG, as the PHP service did; none on deskgate's own schema, whose writes
 * are in its audit log.
 */
export interface CallLog {
  /** Records a successful call that wrote nothing; undefined where no log is kept. */
  readonly recordCall: ((actor: Actor) => Promise<void>) | undefined;
  /** Records a write in its own transaction, with what it did (`created user 42`). */
  readonly recordWrite:
    | ((trx: WriteTransaction, actor: Actor, outcome: string) => Promise<void>)
    | undefined;
}

export const callLog = defineEntity<CallLog>({
  name: 'call-log',
  own: () => ({ recordCall: undefined, recordWrite: undefined }),
  osticket: (handle) => {
    if (!handle.syslog) return { recordCall: undefined, recordWrite: undefined };
    const db = tablesOf<OsticketSyslogTables>(handle.db);
    return {
      recordCall: (actor) => insertSyslogEntry(db, actor),
      recordWrite: (trx, actor, outcome) =>
        insertSyslogEntry(tablesOf<OsticketSyslogTables>(trx), actor, outcome),
    };
  },
  osticketRequires: {
    comment: 'only with DESKGATE_OSTICKET_SYSLOG=true',
    tables: [
      { table: 'syslog', privileges: ['SELECT', 'INSERT'], columns: ['log_id'], syslogOnly: true },
    ],
  },
});
