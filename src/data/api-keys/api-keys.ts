import type { ApiKey, Scope } from '../../domain.ts';
import { defineEntity } from '../entity.ts';
import { makeOsticketApiKeys, OST_API_KEY_COLUMNS } from './osticket-api-keys.ts';
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
}

export const apiKeys = defineEntity<ApiKeyData>({
  name: 'api-keys',
  own: makeOwnApiKeys,
  osticket: makeOsticketApiKeys,
  osticketRequires: {
    comment: "API keys: read (osTicket manages them); deskgate's own admin keys",
    tables: [
      { table: 'api_key', privileges: ['SELECT'], columns: OST_API_KEY_COLUMNS },
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
