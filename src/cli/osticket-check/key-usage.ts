import { createConnection } from 'mysql2/promise';
import type { Scope } from '../../domain.ts';
import { OPERATIONS } from '../../operations/registry.ts';

/** One operation and how often it was called, the last time as the database holds it. */
export interface OperationUse {
  operation: string;
  calls: number;
  last: string;
}

/** What the original and deskgate recorded of the calls, to tell the admin what to grant. */
export interface KeyUsage {
  /**
   * The original PHP service's `ost_syslog` rows ("OSTicket API: Ticket - reply", written with
   * WRITE_SYSTEMLOG, its default). They never name the key; with one active osTicket key
   * besides deskgate's own (its plugin's "API key ids") `originalKeyId` is that key (the
   * original refuses inactive ones).
   */
  original: OperationUse[];
  originalKeyId: number | undefined;
  /** What deskgate recorded per key: its audit log (writes) and its own `ost_syslog` rows. */
  byKey: { keyId: number; operations: OperationUse[] }[];
  /** One grant command per key whose recorded use needs more than osTicket's own rights. */
  grants: { keyId: number; command: string }[];
}

const ORIGINAL_TITLE = /^OSTicket API: (\w+) - (\w+)$/;
const DESKGATE_LOG = /^(\S+) by API key (\d+) from /;

function add(into: Map<string, OperationUse>, operation: string, calls: number, last: string) {
  const use = into.get(operation) ?? { operation, calls: 0, last: '' };
  use.calls += calls;
  if (last > use.last) use.last = last;
  into.set(operation, use);
}

/**
 * The one command that gives key `keyId` what `operations` need beyond osTicket's own rights
 * (`read`; `ticket/add` with "Can create tickets"), or undefined when they need nothing more.
 */
export function grantFor(
  keyId: number | string,
  operations: readonly string[],
  canCreateTickets: boolean,
): string | undefined {
  const scopes = new Set<Scope>();
  let asAgent = false;
  for (const name of operations) {
    const operation = (OPERATIONS as Record<string, { scope: Scope } | undefined>)[name];
    if (!operation || operation.scope === 'read' || operation.scope === 'admin') continue;
    if (name === 'ticket/add' && canCreateTickets) continue;
    scopes.add(operation.scope);
    if (name === 'ticket/reply' || name === 'ticket/close') asAgent = true;
  }
  if (scopes.size === 0) return undefined;
  const order: Scope[] = ['write', 'users:read', 'tickets:read', 'tickets:write'];
  const list = order.filter((scope) => scopes.has(scope)).join(',');
  return `deskgate osticket keys grant ${keyId} --scope ${list}${asAgent ? ' --agent STAFF_ID' : ''}`;
}

/** Reads, read-only, what the original and deskgate recorded of the calls (SPEC §4a). */
export async function readKeyUsage(databaseUrl: string, prefix: string): Promise<KeyUsage> {
  const connection = await createConnection({ uri: databaseUrl, dateStrings: true });
  const original = new Map<string, OperationUse>();
  const byKey = new Map<number, Map<string, OperationUse>>();
  const forKey = (id: number) => {
    const found = byKey.get(id) ?? new Map<string, OperationUse>();
    byKey.set(id, found);
    return found;
  };
  let keys: { id: number; isactive: number; can_create_tickets: number }[] = [];
  /** deskgate's own keys (its osTicket plugin's "API key ids"): never a client's. */
  const bridgeKeys = new Set<number>();
  const tryRead = async (sql: string) => {
    try {
      return (await connection.query(sql))[0] as Record<string, unknown>[];
    } catch {
      return [];
    }
  };
  try {
    await connection.query('SET SESSION TRANSACTION READ ONLY');
    keys = (await tryRead(
      `SELECT id, isactive, can_create_tickets FROM \`${prefix}api_key\` ORDER BY id`,
    )) as typeof keys;
    for (const row of await tryRead(
      `SELECT value FROM \`${prefix}config\` WHERE namespace LIKE 'plugin.%' AND \`key\` = 'api_key_ids'`,
    ))
      for (const id of String(row.value).split(/[\s,]+/))
        if (/^\d+$/.test(id)) bridgeKeys.add(Number(id));
    for (const row of await tryRead(
      `SELECT title, COUNT(*) AS calls, MAX(created) AS last FROM \`${prefix}syslog\`
        WHERE title LIKE 'OSTicket API: %' GROUP BY title`,
    )) {
      const match = ORIGINAL_TITLE.exec(String(row.title));
      if (match?.[1] && match[2])
        add(original, `${match[1].toLowerCase()}/${match[2]}`, Number(row.calls), String(row.last));
    }
    for (const row of await tryRead(
      `SELECT log, created FROM \`${prefix}syslog\` WHERE logger = 'deskgate' ORDER BY log_id DESC LIMIT 100000`,
    )) {
      const match = DESKGATE_LOG.exec(String(row.log));
      if (match?.[1] && match[2]) add(forKey(Number(match[2])), match[1], 1, String(row.created));
    }
    for (const row of await tryRead(
      'SELECT api_key_id, operation, COUNT(*) AS calls, MAX(at) AS last FROM deskgate_audit_log GROUP BY api_key_id, operation',
    )) {
      add(
        forKey(Number(row.api_key_id)),
        String(row.operation),
        Number(row.calls),
        String(row.last),
      );
    }
  } finally {
    await connection.end();
  }
  const active = keys.filter((key) => Number(key.isactive) === 1 && !bridgeKeys.has(key.id));
  const originalKeyId = active.length === 1 ? active[0]?.id : undefined;
  const canCreate = (id: number) =>
    keys.some((key) => key.id === id && Number(key.can_create_tickets) === 1);
  const grants: KeyUsage['grants'] = [];
  const used = new Map<number, Set<string>>();
  for (const [id, operations] of byKey) used.set(id, new Set(operations.keys()));
  if (originalKeyId !== undefined) {
    const mine = used.get(originalKeyId) ?? new Set<string>();
    for (const operation of original.keys()) mine.add(operation);
    used.set(originalKeyId, mine);
  }
  for (const [keyId, operations] of [...used].sort(([a], [b]) => a - b)) {
    const command = grantFor(keyId, [...operations], canCreate(keyId));
    if (command) grants.push({ keyId, command });
  }
  const sorted = (uses: Map<string, OperationUse>) =>
    [...uses.values()].sort((a, b) => a.operation.localeCompare(b.operation));
  return {
    original: sorted(original),
    originalKeyId,
    byKey: [...byKey]
      .sort(([a], [b]) => a - b)
      .map(([keyId, operations]) => ({ keyId, operations: sorted(operations) })),
    grants,
  };
}
