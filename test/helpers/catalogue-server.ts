import assert from 'node:assert/strict';
import { before } from 'node:test';
import { sql } from 'kysely';
import type { FaqCategoryImport } from '../../src/data/faqs/faq.ts';
import { DEFAULT_SCOPES } from '../../src/domain.ts';
import type { OsticketDatabase } from '../osticket/osticket-database.ts';
import { withDatabase } from '../support/database-rows.ts';
import { importFaqs } from './data-setup.ts';
import type { KindDatabase } from './each-database.ts';
import type { Reply } from './http.ts';
import { type TestServer, useTestServer } from './test-server.ts';

/** The catalogue's tables in each layout, for "nothing changed" checks (and the keys beside them). */
const CATALOGUE_TABLES = {
  own: ['departments', 'sla_plans', 'faq_categories', 'faqs', 'api_keys'],
  osticket: ['ost_department', 'ost_sla', 'ost_faq_category', 'ost_faq', 'ost_api_key'],
};

/** A catalogue operation's suite on one kind of database (describeEachDatabaseKind). */
export interface CatalogueSuite {
  readonly server: TestServer;
  /** A key with `read` only: deskgate's, or osTicket's key that may not create tickets. */
  readonly readKey: string;
  /** A key with every default scope (no `admin`): deskgate's, or osTicket's write key. */
  readonly defaultsKey: string;
  /** A key with `admin`: deskgate's own, in osTicket mode under DESKGATE_OSTICKET_ADMIN_WRITES. */
  readonly adminKey: string;
  readonly adminKeyId: number;
  /** One exchange; `key` default the admin key, `method` GET. */
  request(body: Record<string, unknown>, method?: string, key?: string): Promise<Reply>;
  /** Rows in each of the catalogue's tables (departments, SLA plans, FAQ categories, FAQs, keys). */
  countRows(): Promise<number[]>;
  /**
   * Stores a FAQ tree: as `deskgate faq import` does, or in osTicket mode as its staff panel
   * writes the rows (a top-level category's `category_pid` NULL).
   */
  importFaqs(tree: readonly FaqCategoryImport[]): Promise<void>;
}

async function insertOsticketFaqs(
  osticket: OsticketDatabase,
  tree: readonly FaqCategoryImport[],
  parentId: number | null,
): Promise<void> {
  for (const category of tree) {
    const id = await osticket.insert(
      'INSERT INTO ost_faq_category (category_pid, ispublic, name, description, notes, created, updated) VALUES (?, ?, ?, ?, ?, NOW(), NOW())',
      [parentId, category.visibility, category.name, category.description, category.notes],
    );
    for (const faq of category.faqs) {
      await osticket.insert(
        'INSERT INTO ost_faq (category_id, ispublished, question, answer, keywords, notes, created, updated) VALUES (?, ?, ?, ?, ?, ?, NOW(), NOW())',
        [id, faq.published, faq.question, faq.answer, faq.keywords, faq.notes],
      );
    }
    await insertOsticketFaqs(osticket, category.children, id);
  }
}

/** The success envelope's `data` of `reply`. */
export function dataOf<T>(reply: Reply): T {
  assert.equal(reply.status, 200, reply.text);
  return reply.body?.data as T;
}

/**
 * The server and keys of a catalogue suite on `database`. In osTicket mode the database first
 * gets what a fresh osTicket help desk has beyond the reference rows: its default SLA plan
 * (`core.default_sla_id`) and the Support department, which deskgate's own schema seeds too.
 */
export function useCatalogueServer(database: KindDatabase): CatalogueSuite {
  const osticketMode = database.kind === 'osticket';
  before(async () => {
    const osticket = database.osticket;
    if (!osticket) return;
    await osticket.query(
      "INSERT INTO ost_sla (id, flags, grace_period, name, notes, created, updated) VALUES (1, 3, 18, 'Default SLA', NULL, NOW(), NOW())",
    );
    await osticket.query(
      "INSERT INTO ost_config (namespace, `key`, value) VALUES ('core', 'default_sla_id', '1')",
    );
    await osticket.query(
      "INSERT INTO ost_department (id, sla_id, flags, name, signature, ispublic, path, updated, created) VALUES (1, 0, 4, 'Support', '', 1, '/1/', NOW(), NOW())",
    );
  });
  const server = useTestServer(() => ({
    database: database.url,
    env: osticketMode ? { ...database.env, DESKGATE_OSTICKET_ADMIN_WRITES: 'true' } : database.env,
    ownKey: !osticketMode,
  }));
  const keys = { read: '', defaults: '', admin: '', adminId: 0 };
  before(async () => {
    const osticket = database.osticket;
    const admin = await server.createKey({ name: 'catalogue admin', scopes: ['admin'] });
    keys.admin = admin.key;
    keys.adminId = admin.id;
    keys.read = osticket?.readKey.key ?? (await server.createKey({ scopes: ['read'] })).key;
    keys.defaults =
      osticket?.writeKey.key ?? (await server.createKey({ scopes: [...DEFAULT_SCOPES] })).key;
  });
  return {
    server,
    get readKey() {
      return keys.read;
    },
    get defaultsKey() {
      return keys.defaults;
    },
    get adminKey() {
      return keys.admin;
    },
    get adminKeyId() {
      return keys.adminId;
    },
    request: (body, method = 'GET', key = keys.admin) => server.request(body, { method, key }),
    async countRows() {
      const osticket = database.osticket;
      if (osticket) {
        const counts: number[] = [];
        for (const table of CATALOGUE_TABLES.osticket) {
          const [row] = await osticket.query<{ n: number }>(`SELECT count(*) AS n FROM ${table}`);
          counts.push(Number(row?.n));
        }
        return counts;
      }
      return withDatabase(database.url, async (db) => {
        const counts: number[] = [];
        for (const table of CATALOGUE_TABLES.own) {
          const { rows } = await sql<{
            n: number;
          }>`select count(*) as n from ${sql.table(table)}`.execute(db);
          counts.push(Number(rows[0]?.n));
        }
        return counts;
      });
    },
    async importFaqs(tree) {
      const osticket = database.osticket;
      if (osticket) await insertOsticketFaqs(osticket, tree, null);
      else await importFaqs(server.store, tree);
    },
  };
}
