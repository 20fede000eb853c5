import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { assertError } from '../../../test/helpers/assertions.ts';
import { describeEachDatabase } from '../../../test/helpers/each-database.ts';
import { call, type Reply, userBody } from '../../../test/helpers/http.ts';
import { withStore } from '../../../test/helpers/server.ts';
import { useTestServer } from '../../../test/helpers/test-server.ts';
import {
  countRows,
  injectInsertFailure,
  removeInsertFailure,
  type TableName,
  waitForOutput,
} from '../../../test/support/database-rows.ts';
import { users } from '../../data/users/users.ts';

const USER_TABLES: TableName[] = ['users', 'user_emails', 'user_accounts', 'audit_log'];

function assertHiddenInternalError(reply: Reply): void {
  assertError(reply, 500, 'internal_error');
  // The caller learns nothing about the database: no SQL, table, driver or injected message.
  assert.doesNotMatch(reply.text, /injected|trigger|user_|audit|sqlite|insert|constraint|\bat /i);
  assert.equal(reply.body?.errors, undefined);
}

describeEachDatabase('user/add is atomic', (database) => {
  const server = useTestServer({ database });
  let key: string;
  before(async () => {
    ({ key } = await server.createKey({ scopes: ['write'] }));
    // The server has migrated the schema; break the transaction before the first request.
    await injectInsertFailure(database.url, 'user_accounts');
  });

  function add(email: string, headers: Record<string, string> = {}): Promise<Reply> {
    return call(server.url, {
      method: 'POST',
      headers: { apikey: key, ...headers },
      body: userBody({ email }),
    });
  }

  test('a failure after the user and email rows → 500 internal_error, no partial user', async () => {
    assertHiddenInternalError(await add('atomic.accounts@example.com'));
    assert.deepEqual(await countRows(database.url, USER_TABLES), [0, 0, 0, 0]);
    await withStore(database.url, async (store) => {
      assert.equal(
        await store.data(users).findUserIdByEmail('atomic.accounts@example.com'),
        undefined,
      );
    });
    // The operator, unlike the caller, sees the cause in the server's log.
    await waitForOutput(server, 'injected failure');
  });

  test('once the failure is gone, the same address can be added: nothing was left behind', async () => {
    await removeInsertFailure(database.url, 'user_accounts');
    const reply = await add('atomic.accounts@example.com');
    assert.equal(reply.status, 200, reply.text);
    assert.deepEqual(await countRows(database.url, USER_TABLES), [1, 1, 1, 1]);
  });

  for (const table of ['user_emails', 'audit_log', 'idempotency_keys'] as const) {
    test(`a failure writing ${table} leaves no user, email, account or audit row`, async () => {
      const before = await countRows(database.url, [...USER_TABLES, 'idempotency_keys']);
      await injectInsertFailure(database.url, table);
      try {
        const email = `atomic.${table}@example.com`;
        // idempotency_keys is only written for a request with an Idempotency-Key.
        assertHiddenInternalError(await add(email, { 'Idempotency-Key': `atomic-${table}` }));
        assert.deepEqual(
          await countRows(database.url, [...USER_TABLES, 'idempotency_keys']),
          before,
        );
      } finally {
        await removeInsertFailure(database.url, table);
      }
      // And the retry with the same key now succeeds: the failed attempt claimed nothing.
      const retry = await add(`atomic.${table}@example.com`, {
        'Idempotency-Key': `atomic-${table}`,
      });
      assert.equal(retry.status, 200, retry.text);
    });
  }
});
