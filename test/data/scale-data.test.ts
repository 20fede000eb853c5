import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { fillOsticketSchema, fillOwnSchema } from '../../bench/scale-data.ts';
import { migrateToLatest } from '../../src/data/migrations/migrate.ts';
import { DEFAULT_POOL, openDatabase } from '../../src/data/open-database.ts';
import { openStore } from '../../src/data/open-store.ts';
import type { Store } from '../../src/data/store.ts';
import { tickets } from '../../src/data/tickets/tickets.ts';
import { users } from '../../src/data/users/users.ts';
import { DATABASES, type TestDatabase } from '../helpers/databases.ts';
import {
  createOsticketDatabase,
  OSTICKET_SKIP,
  type OsticketDatabase,
} from '../osticket/osticket-database.ts';

/** The bench's generator (issue 34, item 4) at a small size: rows deskgate reads as its own. */
const TICKETS = 2_000;

async function assertReadable(store: Store): Promise<void> {
  const page = await store.data(tickets).listTickets({
    order: 'lastupdate',
    from: undefined,
    to: undefined,
    statusId: 0,
    after: undefined,
    limit: 100,
    notes: false,
  });
  assert.equal(page.length, 100);
  assert.equal(page[0]?.entries.length, 5);
  const found = await store.data(tickets).findTicket({ id: TICKETS }, { notes: false });
  assert.equal(found?.id, TICKETS);
  const userId = await store.data(users).findUserIdByEmail('user7@example.com');
  assert.equal(userId, 7);
}

for (const kind of DATABASES) {
  describe(`bench/scale-data.ts on deskgate's schema, ${kind.name}`, () => {
    let database: TestDatabase;
    before(async () => {
      database = await kind.create();
    });
    after(async () => {
      await database?.drop();
    });
    test(`${TICKETS} tickets with their users, entries and events`, async () => {
      const { db, dialect } = openDatabase<object>(database.url);
      try {
        await migrateToLatest(db, dialect, 'deskgate');
        await fillOwnSchema(db, dialect.name, { tickets: TICKETS });
        const count = async (table: string) =>
          Number(
            (await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(db))
              .rows[0]?.n,
          );
        assert.deepEqual(
          [await count('tickets'), await count('ticket_entries'), await count('ticket_events')],
          [TICKETS, TICKETS * 5, TICKETS * 2],
        );
        assert.equal(await count('users'), TICKETS / 5);
      } finally {
        await db.destroy();
      }
      const { store } = await openStore(
        { databaseUrl: database.url },
        { migrate: false, entities: [tickets, users] },
      );
      try {
        await assertReadable(store);
      } finally {
        await store.close();
      }
    });
  });
}

describe("bench/scale-data.ts --osticket on osTicket 1.18.1's schema", {
  skip: OSTICKET_SKIP,
}, () => {
  let osticket: OsticketDatabase;
  before(async () => {
    osticket = await createOsticketDatabase();
  });
  after(async () => {
    await osticket?.drop();
  });
  test(`${TICKETS} tickets with their users, threads and events`, async () => {
    const { db } = openDatabase<object>(osticket.url, DEFAULT_POOL, { serverTimeZone: true });
    try {
      await fillOsticketSchema(db, { tickets: TICKETS });
    } finally {
      await db.destroy();
    }
    const { store } = await openStore(
      { databaseUrl: osticket.url, schema: 'osticket', tablePrefix: osticket.prefix },
      { migrate: true, entities: [tickets, users] },
    );
    try {
      await assertReadable(store);
    } finally {
      await store.close();
    }
  });
});
