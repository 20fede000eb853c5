import type { Kysely } from 'kysely';
import { formatAgents, parseAgents } from '../../auth/key-agents.ts';
import { type AccountGrant, type ApiKey, SCOPES, type Scope } from '../../domain.ts';
import { formatTimestamp, now } from '../time.ts';

/** One row of `deskgate_key_grants` (migration osticket-004). */
export interface KeyGrantTable {
  osticket_key_id: number;
  /** Comma-separated scopes, granted on top of what osTicket lets the key do. */
  scopes: string;
  notes: number;
  /** `any`, agent ids separated by commas, or ''. */
  agents: string;
  organizations: number;
  confirmed_accounts: number;
  granted_at: string;
}

export interface KeyGrantTables {
  deskgate_key_grants: KeyGrantTable;
}

/** The table's columns: the start and /readyz select them. */
export const KEY_GRANT_COLUMNS = [
  'osticket_key_id',
  'scopes',
  'notes',
  'agents',
  'organizations',
  'confirmed_accounts',
  'granted_at',
] as const;

/** What `deskgate osticket keys grant` gives one osTicket key (SPEC §4a). */
export interface OsticketKeyGrant {
  osticketKeyId: number;
  scopes: Scope[];
  notes: boolean;
  agents: ApiKey['agents'];
  accounts: AccountGrant;
  /** When it was granted (set by the store). */
  granted?: string;
}

function toGrant(row: KeyGrantTable): OsticketKeyGrant {
  return {
    osticketKeyId: Number(row.osticket_key_id),
    scopes: row.scopes.split(',').filter((s): s is Scope => (SCOPES as string[]).includes(s)),
    notes: Number(row.notes) === 1,
    agents: parseAgents(row.agents),
    accounts: {
      organizations: Number(row.organizations) === 1,
      confirmed: Number(row.confirmed_accounts) === 1,
    },
    granted: formatTimestamp(row.granted_at),
  };
}

export async function readGrants(
  db: Kysely<KeyGrantTables>,
  osticketKeyId?: number,
): Promise<Map<number, OsticketKeyGrant>> {
  let query = db.selectFrom('deskgate_key_grants').select(KEY_GRANT_COLUMNS);
  if (osticketKeyId !== undefined) query = query.where('osticket_key_id', '=', osticketKeyId);
  const rows = await query.execute();
  return new Map(rows.map((row) => [Number(row.osticket_key_id), toGrant(row)]));
}

/** Replaces the key's grant (a second grant is the whole new grant, not an addition). */
export async function writeGrant(
  db: Kysely<KeyGrantTables>,
  grant: OsticketKeyGrant,
): Promise<OsticketKeyGrant> {
  const row: KeyGrantTable = {
    osticket_key_id: grant.osticketKeyId,
    scopes: grant.scopes.join(','),
    notes: grant.notes ? 1 : 0,
    agents: formatAgents(grant.agents),
    organizations: grant.accounts.organizations ? 1 : 0,
    confirmed_accounts: grant.accounts.confirmed ? 1 : 0,
    granted_at: now(),
  };
  await db.transaction().execute(async (trx) => {
    await trx
      .deleteFrom('deskgate_key_grants')
      .where('osticket_key_id', '=', grant.osticketKeyId)
      .execute();
    await trx.insertInto('deskgate_key_grants').values(row).execute();
  });
  return toGrant(row);
}

/** False when the key had no grant. */
export async function deleteGrant(db: Kysely<KeyGrantTables>, osticketKeyId: number) {
  const result = await db
    .deleteFrom('deskgate_key_grants')
    .where('osticket_key_id', '=', osticketKeyId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
