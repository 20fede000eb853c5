import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { assertError } from '../../../test/helpers/assertions.ts';
import { describeEachDatabaseKind } from '../../../test/helpers/each-database.ts';
import { call, type Reply, userBody } from '../../../test/helpers/http.ts';
import {
  injectInsertFailureOfKind,
  removeInsertFailureOfKind,
  type TableOfKind,
} from '../../../test/helpers/insert-failure-of-kind.ts';
import { useKindServer } from '../../../test/helpers/kind-server.ts';
import {
  findUserIdsOfKind,
  userRowCountsOfKind,
  userTableCountsOfKind,
} from '../../../test/helpers/user-rows-of-kind.ts';
import { waitForOutput } from '../../../test/support/database-rows.ts';
import { users } from '../../data/users/users.ts';

/**
 * The tables user/add writes after the user row, in each layout (TableOfKind): its account first
 * (the failure of the suite's first tests), then the others. In osTicket mode these are the rows
 * osTicket writes for a user (shared/osticket/README.md) and deskgate's beside them.
 */
const WRITTEN_AFTER_THE_USER: Record<'own' | 'osticket', [TableOfKind, ...TableOfKind[]]> = {
  own: ['user_accounts', 'user_emails', 'audit_log', 'idempotency_keys'],
  osticket: [
    'user_account',
    'user_email',
    'form_entry',
    'form_entry_values',
    'user__cdata',
    '_search',
    'deskgate_audit_log',
    'deskgate_idempotency_keys',
  ],
};

function assertHiddenInternalError(reply: Reply): void {
  assertError(reply, 500, 'internal_error');
  // The caller learns nothing about the database: no SQL, table, driver or injected message.
  assert.doesNotMatch(
    reply.text,
    /injected|trigger|signal|user_|audit|ost_|form_|_search|cdata|sqlite|insert|constraint|\bat /i,
  );
  assert.equal(reply.body?.errors, undefined);
}

describeEachDatabaseKind('user/add is atomic', (database) => {
  const server = useKindServer(database);
  const [accounts, ...others] =
    WRITTEN_AFTER_THE_USER[database.kind === 'osticket' ? 'osticket' : 'own'];
  let key: string;
  before(async () => {
    ({ key } = database.osticket?.writeKey ?? (await server.createKey({ scopes: ['write'] })));
    // The server has migrated the schema; break the transaction before the first request.
    await injectInsertFailureOfKind(database, accounts);
  });

  function add(email: string, headers: Record<string, string> = {}): Promise<Reply> {
    return call(server.url, {
      method: 'POST',
      headers: { apikey: key, ...headers },
      body: userBody({ email }),
    });
  }

  test(`a failure after the user and email rows (${accounts}) → 500 internal_error, no partial user`, async () => {
    const before = await userRowCountsOfKind(database);
    assertHiddenInternalError(await add('atomic.accounts@example.com'));
    assert.deepEqual(await userTableCountsOfKind(database), [0, 0, 0, 0]);
    // In osTicket mode: no row in any table (form entry, its answers, search index, …).
    assert.deepEqual(await userRowCountsOfKind(database), before);
    assert.equal(
      await server.store.data(users).findUserIdByEmail('atomic.accounts@example.com'),
      undefined,
    );
    assert.deepEqual(await findUserIdsOfKind(database, 'atomic.accounts@example.com'), []);
    // The operator, unlike the caller, sees the cause in the server's log.
    await waitForOutput(server, 'injected failure');
  });

  test('once the failure is gone, the same address can be added: nothing was left behind', async () => {
    await removeInsertFailureOfKind(database, accounts);
    const reply = await add('atomic.accounts@example.com');
    assert.equal(reply.status, 200, reply.text);
    assert.deepEqual(await userTableCountsOfKind(database), [1, 1, 1, 1]);
  });

  for (const table of others) {
    test(`a failure writing ${table} leaves no row of the user anywhere, nor its stored answer`, async () => {
      const before = await userRowCountsOfKind(database);
      await injectInsertFailureOfKind(database, table);
      try {
        const email = `atomic.${table}@example.com`;
        // idempotency_keys is only written for a request with an Idempotency-Key.
        assertHiddenInternalError(await add(email, { 'Idempotency-Key': `atomic-${table}` }));
        assert.deepEqual(await userRowCountsOfKind(database), before);
        assert.deepEqual(await findUserIdsOfKind(database, email), []);
      } finally {
        await removeInsertFailureOfKind(database, table);
      }
      // And the retry with the same key now succeeds: the failed attempt claimed nothing.
      const retry = await add(`atomic.${table}@example.com`, {
        'Idempotency-Key': `atomic-${table}`,
      });
      assert.equal(retry.status, 200, retry.text);
    });
  }
});
