import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import ipaddr from 'ipaddr.js';
import { createConnection } from 'mysql2/promise';

/** An osTicket API key as the check shows it: never the key itself. */
export interface KeyAddresses {
  id: number;
  active: boolean;
  canCreateTickets: boolean;
  notes: string;
  /** `ost_api_key.ipaddr`: the one address deskgate accepts the key from. */
  boundTo: string;
  /** Where its calls were seen coming from, with how many and where that was recorded. */
  seen: { address: string; calls: number; source: string }[];
  /** Addresses it was seen from, or said to be called from, that are not `boundTo`. */
  mismatched: string[];
}

/** Where calls come from, as given on the command line: every key, or one key by id. */
export interface CallsFrom {
  keyId?: number;
  address: string;
}

function normalize(address: string): string {
  try {
    const parsed = ipaddr.parse(address.trim());
    if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress())
      return (parsed as ipaddr.IPv6).toIPv4Address().toString();
    return parsed.toString();
  } catch {
    return address.trim();
  }
}

type Seen = Map<number, Map<string, { calls: number; sources: Set<string> }>>;

function count(seen: Seen, keyId: number, address: string, calls: number, source: string) {
  let byAddress = seen.get(keyId);
  if (!byAddress) {
    byAddress = new Map();
    seen.set(keyId, byAddress);
  }
  const key = normalize(address);
  const entry = byAddress.get(key) ?? { calls: 0, sources: new Set<string>() };
  entry.calls += calls;
  entry.sources.add(source);
  byAddress.set(key, entry);
}

/** deskgate's request log lines (JSON, one per request): `keyId` and `req.remoteAddress`. */
async function readLogFile(path: string, seen: Seen): Promise<void> {
  const lines = createInterface({ input: createReadStream(path, 'utf8'), crlfDelay: Infinity });
  for await (const line of lines) {
    if (!line.startsWith('{')) continue;
    try {
      const entry = JSON.parse(line) as { keyId?: unknown; req?: { remoteAddress?: unknown } };
      if (typeof entry.keyId === 'number' && typeof entry.req?.remoteAddress === 'string')
        count(seen, entry.keyId, entry.req.remoteAddress, 1, path);
    } catch {
      // Not a log line of deskgate's.
    }
  }
}

const SYSLOG_LINE = /by API key (\d+) from (\S+?)(?:: |$)/;

/**
 * Reads osTicket's keys, and where deskgate recorded their calls from (its audit log of writes,
 * and osTicket's System Logs when DESKGATE_OSTICKET_SYSLOG was on), read-only; adds the request
 * log files and the addresses given. Compares each with the key's bound address.
 */
export async function readKeyAddresses(options: {
  databaseUrl: string;
  prefix: string;
  logFiles: readonly string[];
  callsFrom: readonly CallsFrom[];
}): Promise<{ keys: KeyAddresses[]; sources: string[] }> {
  const connection = await createConnection({ uri: options.databaseUrl, dateStrings: true });
  const seen: Seen = new Map();
  const sources: string[] = [];
  const p = options.prefix;
  let rows: {
    id: number;
    isactive: number;
    ipaddr: string;
    can_create_tickets: number;
    notes: string | null;
  }[];
  try {
    await connection.query('SET SESSION TRANSACTION READ ONLY');
    [rows] = (await connection.query(
      `SELECT id, isactive, ipaddr, can_create_tickets, notes FROM \`${p}api_key\` ORDER BY id`,
    )) as unknown as [typeof rows];
    const tryRead = async (source: string, sql: string) => {
      try {
        const [found] = await connection.query(sql);
        sources.push(source);
        return found as Record<string, unknown>[];
      } catch {
        return [];
      }
    };
    for (const row of await tryRead(
      'deskgate_audit_log',
      'SELECT api_key_id, client_ip, COUNT(*) AS calls FROM deskgate_audit_log GROUP BY api_key_id, client_ip',
    )) {
      count(
        seen,
        Number(row.api_key_id),
        String(row.client_ip),
        Number(row.calls),
        'deskgate_audit_log',
      );
    }
    for (const row of await tryRead(
      `${p}syslog`,
      `SELECT log FROM \`${p}syslog\` WHERE logger = 'deskgate' ORDER BY log_id DESC LIMIT 100000`,
    )) {
      const match = SYSLOG_LINE.exec(String(row.log));
      if (match?.[1] && match[2]) count(seen, Number(match[1]), match[2], 1, `${p}syslog`);
    }
  } finally {
    await connection.end();
  }
  for (const file of options.logFiles) {
    await readLogFile(file, seen);
    sources.push(file);
  }
  const keys = rows.map((row): KeyAddresses => {
    const boundTo = normalize(row.ipaddr ?? '');
    const observed = [...(seen.get(row.id) ?? new Map()).entries()].map(([address, entry]) => ({
      address,
      calls: entry.calls,
      source: [...entry.sources].join(', '),
    }));
    const given = options.callsFrom
      .filter((c) => c.keyId === undefined || c.keyId === row.id)
      .map((c) => normalize(c.address));
    const mismatched = [...new Set([...observed.map((o) => o.address), ...given])].filter(
      (address) => address !== boundTo,
    );
    return {
      id: row.id,
      active: Boolean(row.isactive),
      canCreateTickets: Boolean(row.can_create_tickets),
      notes: row.notes ?? '',
      boundTo,
      seen: observed,
      mismatched,
    };
  });
  return { keys, sources };
}
