import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import { dataOf, useCatalogueServer } from '../../../test/helpers/catalogue-server.ts';
import { describeEachDatabaseKind } from '../../../test/helpers/each-database.ts';
import { addUser, ticketAddBody } from '../../../test/helpers/tickets.ts';
import { withDatabase } from '../../../test/support/database-rows.ts';

const remove = (id: unknown) => ({ query: 'sla', condition: 'delete', parameters: { id } });
const addPlan = (name: string) => ({
  query: 'sla',
  condition: 'add',
  parameters: { name, grace_period: 4 },
});

describeEachDatabaseKind('sla/delete', (database) => {
  const suite = useCatalogueServer(database);

  test('needs the admin scope; DELETE, or POST (405 otherwise, with Allow)', async () => {
    const refused = await suite.request(remove(1), 'DELETE', suite.defaultsKey);
    assert.equal(refused.status, 403, refused.text);
    assert.equal(refused.body?.code, 'insufficient_scope');
    const wrongMethod = await suite.request(remove(1));
    assert.equal(wrongMethod.status, 405);
    assert.match(String(wrongMethod.headers.allow), /DELETE, POST/);
  });

  test('never the default plan; an id that is no integer (an injection) is a 400', async () => {
    const before = await suite.countRows();
    const byDefault = await suite.request(remove(1), 'DELETE');
    assert.equal(byDefault.status, 400, byDefault.text);
    const injected = await suite.request(remove("1' OR '1'='1"), 'DELETE');
    assert.equal(injected.status, 400, injected.text);
    assert.deepEqual(await suite.countRows(), before);
  });

  test('moves departments (and topics) to 0 and tickets to the default plan; then the plan is gone (204)', async () => {
    const id = dataOf<string>(await suite.request(addPlan('Silver'), 'POST'));
    const osticket = database.osticket;
    let state: () => Promise<unknown[]>;
    if (osticket) {
      await osticket.query('UPDATE ost_department SET sla_id = ? WHERE id = 1', [id]);
      await osticket.query('UPDATE ost_help_topic SET sla_id = ? WHERE topic_id = 2', [id]);
      const ticket = await osticket.insert(
        "INSERT INTO ost_ticket (number, user_id, dept_id, sla_id, created, updated) VALUES ('900001', 1, 1, ?, NOW(), NOW())",
        [id],
      );
      state = () =>
        Promise.all([
          osticket.query('SELECT sla_id FROM ost_department WHERE id = 1'),
          osticket.query('SELECT sla_id FROM ost_help_topic WHERE topic_id = 2'),
          osticket.query('SELECT sla_id FROM ost_ticket WHERE ticket_id = ?', [ticket]),
        ]);
    } else {
      const userId = await addUser(suite.server.store);
      const ticket = dataOf<string>(
        await suite.request(
          ticketAddBody(userId, { sla_id: Number(id) }),
          'POST',
          suite.server.key,
        ),
      );
      await withDatabase(database.url, (db) =>
        sql`update departments set sla_id = ${Number(id)} where id = 1`.execute(db),
      );
      state = () =>
        withDatabase(database.url, async (db) => [
          (await sql`select sla_id from departments where id = 1`.execute(db)).rows,
          (await sql`select sla_id from tickets where id = ${Number(ticket)}`.execute(db)).rows,
        ]);
    }
    assert.equal(dataOf<string>(await suite.request(remove(id), 'POST')), id);
    const moved = (await state()).map((rows) =>
      (rows as { sla_id: unknown }[]).map((row) => Number(row.sla_id)),
    );
    assert.deepEqual(moved, osticket ? [[0], [0], [1]] : [[0], [1]]);
    if (osticket)
      assert.deepEqual(await osticket.query('SELECT id FROM ost_sla WHERE id = ?', [id]), []);
    const again = await suite.request(remove(id), 'DELETE');
    assert.equal(again.status, 204);
  });

  if (database.kind === 'osticket') {
    test('the cascade is one transaction: when its last statement fails, nothing of it stays', async () => {
      const osticket = database.osticket;
      assert.ok(osticket);
      const id = Number(dataOf(await suite.request(addPlan('Bronze'), 'POST')));
      await osticket.query('UPDATE ost_department SET sla_id = ? WHERE id = 1', [id]);
      const ticket = await osticket.insert(
        "INSERT INTO ost_ticket (number, user_id, dept_id, sla_id, created, updated) VALUES ('900002', 1, 1, ?, NOW(), NOW())",
        [id],
      );
      await osticket.query('UPDATE ost_help_topic SET sla_id = ? WHERE topic_id = 2', [id]);
      const state = () =>
        Promise.all([
          osticket.query('SELECT id FROM ost_sla ORDER BY id'),
          osticket.query('SELECT sla_id FROM ost_department WHERE id = 1'),
          osticket.query('SELECT sla_id FROM ost_help_topic WHERE topic_id = 2'),
          osticket.query('SELECT sla_id FROM ost_ticket WHERE ticket_id = ?', [ticket]),
        ]);
      const before = await state();
      await osticket.query(
        "CREATE TRIGGER refuse_ticket_update BEFORE UPDATE ON ost_ticket FOR EACH ROW SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'refused'",
      );
      try {
        const failed = await suite.request(remove(id), 'DELETE');
        assert.equal(failed.status, 500, failed.text);
      } finally {
        await osticket.query('DROP TRIGGER refuse_ticket_update');
      }
      assert.deepEqual(await state(), before);
    });
  }
});
