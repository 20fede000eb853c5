import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Kysely } from 'kysely';
import {
  createOsticketDatabase,
  OSTICKET_SKIP,
  type OsticketDatabase,
} from '../../../test/osticket/osticket-database.ts';
import { DEFAULT_POOL, openDatabase } from '../open-database.ts';
import { TablePrefixPlugin } from './table-prefix-plugin.ts';

interface Tables {
  department: { id: number; name: string };
  ticket: { ticket_id: number; dept_id: number; number: string };
  webhooks: { id: number; url: string };
}

/** Queries written with aliases and common table expressions, run on osTicket 1.18.1's schema. */
describe('the table prefix, on queries that name tables by alias', { skip: OSTICKET_SKIP }, () => {
  let osticket: OsticketDatabase;
  let db: Kysely<Tables>;
  before(async () => {
    // A prefix other than osTicket's default: what is prefixed is the prefix given.
    osticket = await createOsticketDatabase({ prefix: 'hd_' });
    const opened = openDatabase<Tables>(osticket.url, DEFAULT_POOL);
    db = opened.db.withPlugin(new TablePrefixPlugin(osticket.prefix, new Set(['webhooks'])));
    for (const [id, name] of [
      [1, 'Support'],
      [2, 'Billing'],
    ] as const) {
      await osticket.query(
        `INSERT INTO hd_department (id, sla_id, flags, name, signature, ispublic, path, updated, created)
         VALUES (?, 0, 4, ?, '', 1, ?, NOW(), NOW())`,
        [id, name, `/${id}/`],
      );
    }
    for (const [number, dept] of [
      ['100001', 1],
      ['100002', 1],
      ['100003', 2],
    ] as const) {
      await osticket.query(
        `INSERT INTO hd_ticket (number, user_id, status_id, dept_id, created, updated)
         VALUES (?, 1, 1, ?, NOW(), NOW())`,
        [number, dept],
      );
    }
  });
  after(async () => {
    await db?.destroy();
    await osticket?.drop();
  });

  test('an alias is referred to as named; the tables it stands for take the prefix', async () => {
    const query = db
      .selectFrom('department as d')
      .select(['d.id', 'd.name'])
      .where('d.id', 'in', (eb) => eb.selectFrom('department').select('department.id'))
      .orderBy('d.id');
    const { sql } = query.compile();
    assert.match(sql, /from `hd_department` as `d`/);
    assert.match(sql, /select `d`\.`id`, `d`\.`name`/);
    assert.match(sql, /select `hd_department`\.`id` from `hd_department`/);
    assert.doesNotMatch(sql, /hd_d`/);
    const rows = await query.execute();
    const expected = await osticket.query<{ id: number; name: string }>(
      'SELECT id, name FROM hd_department ORDER BY id',
    );
    assert.ok(expected.length > 0);
    assert.deepEqual(
      rows.map((row) => ({ ...row })),
      expected.map((row) => ({ ...row })),
    );
  });

  test('a join of aliases, a correlated subquery and deskgate’s own table by alias', async () => {
    const counted = await db
      .selectFrom('department as d')
      .leftJoin('ticket as t', 't.dept_id', 'd.id')
      .select((eb) => [
        'd.id',
        eb.fn.count<number>('t.ticket_id').as('tickets'),
        eb
          .selectFrom('ticket as inner_t')
          .select((inner) => inner.fn.countAll<number>().as('n'))
          .whereRef('inner_t.dept_id', '=', 'd.id')
          .as('again'),
      ])
      .groupBy('d.id')
      .execute();
    assert.deepEqual(
      counted
        .map((row) => [Number(row.id), Number(row.tickets), Number(row.again)])
        .sort((a, b) => (a[0] ?? 0) - (b[0] ?? 0)),
      [
        [1, 2, 2],
        [2, 1, 1],
      ],
    );
    const own = db.selectFrom('webhooks as w').select(['w.id', 'w.url']);
    assert.match(own.compile().sql, /select `w`\.`id`, `w`\.`url` from `deskgate_webhooks` as `w`/);
    await own.execute();
  });

  test('a common table expression is read and referred to by its own name', async () => {
    const rows = await db
      .with('named', (q) => q.selectFrom('department as d').select(['d.id', 'd.name']))
      .selectFrom('named')
      .select(['named.id'])
      .orderBy('named.id')
      .execute();
    const expected = await osticket.query<{ id: number }>('SELECT id FROM hd_department');
    assert.equal(rows.length, expected.length);
  });
});
