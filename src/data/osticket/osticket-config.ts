import type { Kysely } from 'kysely';
import { tablesOf } from '../entity.ts';

/** osTicket 1.18.1's `config`: its settings, by namespace and key. */
export interface OstConfigTable {
  id: number;
  namespace: string;
  key: string;
  value: string;
}

/** The help desk's setting `key` (namespace `core`), undefined when unset. */
export async function readCoreSetting(
  db: Kysely<object>,
  key: string,
): Promise<string | undefined> {
  const row = await tablesOf<{ config: OstConfigTable }>(db)
    .selectFrom('config')
    .select('value')
    .where('namespace', '=', 'core')
    .where('key', '=', key)
    .executeTakeFirst();
  return row?.value;
}
