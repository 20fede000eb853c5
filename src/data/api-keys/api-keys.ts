import type { ApiKey, Scope } from '../../domain.ts';
import { defineEntity } from '../entity.ts';
import { makeOsticketApiKeys, OST_API_KEY_COLUMNS } from './osticket-api-keys.ts';
import { KEY_GRANT_COLUMNS, type OsticketKeyGrant } from './osticket-key-grants.ts';
import { makeOwnApiKeys } from './own-api-keys.ts';

export interface NewApiKey {
  name: string;
  keyHash: string;
  scopes: Scope[];
  allowIps: string[];
  /** When the key stops working; absent or null: never. */
  expiresAt?: string | null;
  /** May read internal notes (`keys create --notes`). Default false. */
  notes?: boolean;
  /** The agents it may act as (`keys create --agent`, `--any-agent`). Default none. */
  agents?: ApiKey['agents'];
}

/** API keys: what authentication reads and the `keys` commands manage. */
export interface ApiKeyData {
  createApiKey(input: NewApiKey): Promise<ApiKey>;
  /**
   * Creates the key only when the database has none, atomically across every instance sharing
   * the database; undefined when a key exists (or another instance created the first one).
   */
  createFirstApiKey(input: NewApiKey): Promise<ApiKey | undefined>;
  listApiKeys(): Promise<ApiKey[]>;
  findApiKeyById(id: number): Promise<ApiKey | undefined>;
  /**
   * Creates `replacement` and, in the same transaction, ends key `id`: it expires at `oldEndsAt`,
   * or is revoked at once when that is null, and names the new key as its replacement. Undefined
   * (nothing written) when key `id` is missing, revoked or already replaced.
   */
  rotateApiKey(
    id: number,
    replacement: NewApiKey,
    oldEndsAt: string | null,
  ): Promise<ApiKey | undefined>;
  /** Returns false when there is no such key. */
  revokeApiKey(id: number): Promise<boolean>;
  /** The active (neither revoked nor expired) key whose secret this is. */
  findApiKeyBySecret(secret: string): Promise<ApiKey | undefined>;
  markApiKeyUsed(id: number): Promise<void>;
  countApiKeys(): Promise<number>;
  /** osTicket mode only (undefined on the own schema): `deskgate osticket keys` (SPEC §4a). */
  osticketGrants?: OsticketGrantData;
}

/** One osTicket key as `deskgate osticket keys list` shows it. */
export interface OsticketKeyListing {
  /** The key as deskgate lets it work: osTicket's rights plus its grant. */
  key: ApiKey;
  /** osTicket's "Can Create Tickets" (`ticket/add` with osTicket's own choices). */
  canCreateTickets: boolean;
  grant: OsticketKeyGrant | undefined;
}

export interface OsticketGrantData {
  listOsticketKeys(): Promise<OsticketKeyListing[]>;
  /** Replaces the key's grant; undefined (nothing written) when osTicket has no key of this id. */
  grant(grant: OsticketKeyGrant): Promise<OsticketKeyListing | undefined>;
  /** 'unknown': no osTicket key of this id; 'none': it had no grant; 'revoked'. */
  revoke(osticketKeyId: number): Promise<'unknown' | 'none' | 'revoked'>;
}

export const apiKeys = defineEntity<ApiKeyData>({
  name: 'api-keys',
  own: makeOwnApiKeys,
  osticket: makeOsticketApiKeys,
  osticketRequires: {
    comment:
      "API keys: read (osTicket manages them); deskgate's grants to them and its own admin keys",
    tables: [
      { table: 'api_key', privileges: ['SELECT'], columns: OST_API_KEY_COLUMNS },
      {
        table: 'key_grants',
        own: true,
        // INSERT and DELETE: `deskgate osticket keys grant` and `revoke` (SPEC §4a).
        privileges: ['CREATE', 'SELECT', 'INSERT', 'DELETE'],
        columns: KEY_GRANT_COLUMNS,
        note: "what `deskgate osticket keys grant` gives an osTicket key beyond osTicket's own rights",
      },
      {
        table: 'api_keys',
        own: true,
        adminOnly: true,
        privileges: ['CREATE', 'SELECT', 'INSERT', 'UPDATE'],
        note: 'the admin keys (keys create --scope admin), a table deskgate creates at start',
      },
    ],
  },
});
