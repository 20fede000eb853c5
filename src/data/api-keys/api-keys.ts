import type { ApiKey, Scope } from '../../domain.ts';
import { defineEntity } from '../entity.ts';
import { makeOsticketApiKeys, OST_API_KEY_COLUMNS } from './osticket-api-keys.ts';
import { makeOwnApiKeys } from './own-api-keys.ts';

export interface NewApiKey {
  name: string;
  keyHash: string;
  scopes: Scope[];
  allowIps: string[];
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
  /** Returns false when there is no such key. */
  revokeApiKey(id: number): Promise<boolean>;
  /** The active (not revoked) key whose secret this is. */
  findApiKeyBySecret(secret: string): Promise<ApiKey | undefined>;
  markApiKeyUsed(id: number): Promise<void>;
  countApiKeys(): Promise<number>;
}

export const apiKeys = defineEntity<ApiKeyData>({
  name: 'api-keys',
  own: makeOwnApiKeys,
  osticket: makeOsticketApiKeys,
  osticketRequires: {
    comment: 'API keys: read (osTicket manages them)',
    tables: [{ table: 'api_key', privileges: ['SELECT'], columns: OST_API_KEY_COLUMNS }],
  },
});
