import type { Kysely } from 'kysely';
import { type ApiKey, SCOPES, type Scope } from '../../domain.ts';
import { type Param, prepareRead, type Reader } from '../common/prepared-query.ts';
import type { Dialect } from '../dialects/dialect.ts';
import type { ApiKeyRow, Database } from '../schema.ts';
import type { NewApiKey } from '../store.ts';
import { formatTimestamp, now } from '../time.ts';
import { insertReturningId } from './insert-returning-id.ts';

function toApiKey(row: ApiKeyRow): ApiKey {
  return {
    id: Number(row.id),
    name: row.name,
    scopes: row.scopes.split(',').filter((s): s is Scope => (SCOPES as string[]).includes(s)),
    allowIps: JSON.parse(row.allow_ips) as string[],
    created: formatTimestamp(row.created_at),
    lastUsed: row.last_used_at === null ? null : formatTimestamp(row.last_used_at),
    revoked: row.revoked_at === null ? null : formatTimestamp(row.revoked_at),
    notes: Number(row.notes) === 1,
  };
}

export async function createApiKey(
  db: Kysely<Database>,
  dialect: Dialect,
  key: NewApiKey,
): Promise<ApiKey> {
  const query = db.insertInto('api_keys').values({
    name: key.name,
    key_hash: key.keyHash,
    scopes: key.scopes.join(','),
    allow_ips: JSON.stringify(key.allowIps),
    created_at: now(),
    last_used_at: null,
    revoked_at: null,
    notes: key.notes ? 1 : 0,
  });
  const id = await insertReturningId(query, dialect);
  return toApiKey(
    await db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirstOrThrow(),
  );
}

export async function listApiKeys(db: Kysely<Database>): Promise<ApiKey[]> {
  const rows = await db.selectFrom('api_keys').selectAll().orderBy('id').execute();
  return rows.map(toApiKey);
}

export async function countApiKeys(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('api_keys')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function revokeApiKey(db: Kysely<Database>, id: number): Promise<boolean> {
  const key = await db
    .selectFrom('api_keys')
    .select(['id', 'revoked_at'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!key) return false;
  if (key.revoked_at === null) {
    await db.updateTable('api_keys').set({ revoked_at: now() }).where('id', '=', id).execute();
  }
  return true;
}

const activeKeyByHash = prepareRead((db: Kysely<Database>, param: Param<{ keyHash: string }>) =>
  db
    .selectFrom('api_keys')
    .selectAll()
    .where('key_hash', '=', param('keyHash'))
    .where('revoked_at', 'is', null),
);

/** Only keys that are not revoked are found. */
export async function findApiKeyByHash(
  reader: Reader<Database>,
  keyHash: string,
): Promise<ApiKey | undefined> {
  const [row] = await activeKeyByHash(reader, { keyHash });
  return row && toApiKey(row);
}

export async function markApiKeyUsed(db: Kysely<Database>, id: number): Promise<void> {
  await db.updateTable('api_keys').set({ last_used_at: now() }).where('id', '=', id).execute();
}
