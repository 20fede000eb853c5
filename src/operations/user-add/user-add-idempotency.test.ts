import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { before, test } from 'node:test';
import { assertError } from '../../../test/helpers/assertions.ts';
import { describeEachDatabaseKind } from '../../../test/helpers/each-database.ts';
import { call, type Reply, userFields } from '../../../test/helpers/http.ts';
import {
  expireIdempotencyKeysOfKind,
  storedIdempotencyKeysOfKind,
} from '../../../test/helpers/idempotency-keys-of-kind.ts';
import { useKindServer } from '../../../test/helpers/kind-server.ts';
import { FORMER_RIGHTS } from '../../../test/helpers/osticket-key-grant.ts';
import { startTestServer } from '../../../test/helpers/test-server.ts';
import { findUserIdsOfKind, userRowCountsOfKind } from '../../../test/helpers/user-rows-of-kind.ts';
import { addWriteKeyOfKind } from '../../../test/helpers/users-of-kind.ts';

const BCRYPT_HASH = '$2y$10$.vGA1O9wmRjrwAVXD98HNOgsNpDczlqm3Jq7KnEd1rVAGv3Fykk1a';

function assertMismatch(reply: Reply): void {
  assertError(reply, 422, 'idempotency_mismatch');
}

describeEachDatabaseKind('user/add with Idempotency-Key', (database) => {
  const server = useKindServer(database);
  let key: string;
  before(async () => {
    // In osTicket mode org_id 3 (the mismatch test) needs the key's organizations grant.
    ({ key } = await addWriteKeyOfKind(database, server, [...FORMER_RIGHTS, '--organizations']));
  });

  function add(
    parameters: Record<string, unknown>,
    idempotencyKey: string | undefined,
    apikey = key,
    url = server.url,
  ): Promise<Reply> {
    return call(url, {
      method: 'POST',
      headers: {
        apikey,
        ...(idempotencyKey === undefined ? {} : { 'Idempotency-Key': idempotencyKey }),
      },
      body: { query: 'user', condition: 'add', parameters },
    });
  }

  function idOf(reply: Reply): string {
    assert.equal(reply.status, 200, reply.text);
    assert.match(String(reply.body?.data), /^[1-9][0-9]*$/);
    return String(reply.body?.data);
  }

  test('same key and same body → the same id again (200, not 409), one user only', async () => {
    const parameters = userFields();
    const idempotencyKey = randomUUID();
    const first = idOf(await add(parameters, idempotencyKey));
    const before = await userRowCountsOfKind(database);
    const second = await add(parameters, idempotencyKey);
    assert.equal(idOf(second), first);
    assert.deepEqual(Object.keys(second.body ?? {}).sort(), ['data', 'status', 'time']);
    assert.equal(idOf(await add(parameters, idempotencyKey)), first);
    assert.deepEqual(await userRowCountsOfKind(database), before);
    assert.deepEqual(await findUserIdsOfKind(database, String(parameters.email)), [Number(first)]);
  });

  test('the replay also works when the password was sent as a hash', async () => {
    const parameters = userFields({ password: BCRYPT_HASH });
    const idempotencyKey = randomUUID();
    const first = idOf(await add(parameters, idempotencyKey));
    assert.equal(idOf(await add(parameters, idempotencyKey)), first);
  });

  test('without the key, the same body again is a 409', async () => {
    const parameters = userFields();
    const id = idOf(await add(parameters, randomUUID()));
    const again = await add(parameters, undefined);
    assert.equal(again.status, 409);
    assert.equal(again.body?.existing_id, id);
  });

  test('another key with the same body is a 409, not a replay', async () => {
    const parameters = userFields();
    const id = idOf(await add(parameters, randomUUID()));
    const again = await add(parameters, randomUUID());
    assertError(again, 409, 'duplicate_email');
    assert.equal(again.body?.existing_id, id);
  });

  test('same key with a different body → 422 idempotency_mismatch, nothing written', async () => {
    const parameters = userFields();
    const idempotencyKey = randomUUID();
    idOf(await add(parameters, idempotencyKey));
    const before = await userRowCountsOfKind(database);
    for (const change of [
      { name: 'Somebody Else' },
      { email: `other.${randomUUID()}@example.com` },
      { timezone: 'UTC' },
      { phone: 1 },
      { org_id: 3 },
      { default_email_id: 9 },
      { status: 2 },
    ]) {
      assertMismatch(await add({ ...parameters, ...change }, idempotencyKey));
    }
    assert.deepEqual(await userRowCountsOfKind(database), before);
  });

  test('same key with a different password → 422 idempotency_mismatch', async () => {
    const parameters = userFields({ password: 'the first password' });
    const idempotencyKey = randomUUID();
    idOf(await add(parameters, idempotencyKey));
    assertMismatch(await add({ ...parameters, password: 'another password' }, idempotencyKey));
    assertMismatch(await add({ ...parameters, password: BCRYPT_HASH }, idempotencyKey));
  });

  test('same key with a different hash given as password → 422', async () => {
    const parameters = userFields({ password: BCRYPT_HASH });
    const idempotencyKey = randomUUID();
    idOf(await add(parameters, idempotencyKey));
    assertMismatch(await add({ ...parameters, password: 'plain text' }, idempotencyKey));
    assertMismatch(
      await add({ ...parameters, password: BCRYPT_HASH.replace('$2y$', '$2b$') }, idempotencyKey),
    );
  });

  test('a key is remembered per API key: another API key may use the same Idempotency-Key', async () => {
    const { key: otherApiKey } = await addWriteKeyOfKind(database, server);
    const idempotencyKey = randomUUID();
    const first = idOf(await add(userFields(), idempotencyKey));
    const other = idOf(await add(userFields(), idempotencyKey, otherApiKey));
    assert.notEqual(other, first);
  });

  test('a rejected request does not claim its key', async () => {
    const idempotencyKey = randomUUID();
    assert.equal((await add(userFields({ email: 'broken' }), idempotencyKey)).status, 400);
    idOf(await add(userFields(), idempotencyKey));
  });

  test('a key older than 24 hours is forgotten', async () => {
    const parameters = userFields();
    const idempotencyKey = randomUUID();
    idOf(await add(parameters, idempotencyKey));
    await expireIdempotencyKeysOfKind(database, [idempotencyKey]);
    // No replay any more: the address is simply taken.
    const again = await add(parameters, idempotencyKey);
    assert.equal(again.status, 409, again.text);
    // And the key is free for a new request.
    idOf(await add(userFields(), idempotencyKey));
  });

  test('expired keys are swept away at most once a minute by one server, not on every add', async (t) => {
    const expire = (keys: string[]) => expireIdempotencyKeysOfKind(database, keys);
    const stored = (keys: string[]) => storedIdempotencyKeysOfKind(database, keys);
    const [early, late] = ['sweep-a', 'sweep-b'].map((prefix) => `${prefix}-${randomUUID()}`);
    idOf(await add(userFields(), early));
    idOf(await add(userFields(), late));
    await expire([early as string]);
    // A server of its own (the suite's key): its first idempotent add sweeps.
    const fresh = await startTestServer(t, {
      database: database.url,
      env: database.env,
      ownKey: false,
    });
    const addOnFresh = (idempotencyKey: string) =>
      add(userFields(), idempotencyKey, key, fresh.url);
    idOf(await addOnFresh(randomUUID()));
    assert.deepEqual(await stored([early as string, late as string]), [late]);
    // Expired after that sweep: left for the next one, a minute later.
    await expire([late as string]);
    idOf(await addOnFresh(randomUUID()));
    assert.deepEqual(await stored([late as string]), [late]);
  });

  test('simultaneous retries with one key and one body all get the same id', async () => {
    const parameters = userFields();
    const idempotencyKey = randomUUID();
    const replies = await Promise.all(
      Array.from({ length: 10 }, () => add(parameters, idempotencyKey)),
    );
    assert.deepEqual(
      replies.map((r) => `${r.status} ${r.body?.code ?? ''}`.trim()),
      replies.map(() => '200'),
    );
    assert.equal(new Set(replies.map((r) => r.body?.data)).size, 1);
    assert.equal((await findUserIdsOfKind(database, String(parameters.email))).length, 1);
  });

  test('simultaneous requests with one key and different bodies: one 200, the rest 422', async () => {
    const idempotencyKey = randomUUID();
    const replies = await Promise.all(
      Array.from({ length: 10 }, () => add(userFields(), idempotencyKey)),
    );
    const statuses = replies.map((r) => r.status).sort();
    assert.deepEqual(statuses, [200, ...Array.from({ length: 9 }, () => 422)]);
    assert.deepEqual(await storedIdempotencyKeysOfKind(database, [idempotencyKey]), [
      idempotencyKey,
    ]);
  });

  test('an Idempotency-Key longer than 255 characters → 400', async () => {
    const reply = await add(userFields(), 'k'.repeat(256));
    assertError(reply, 400, 'invalid_request');
  });

  test('an empty Idempotency-Key → 400, nothing written', async () => {
    const fields = userFields();
    const reply = await add(fields, '');
    assertError(reply, 400, 'invalid_request');
    assert.match(reply.body?.data as string, /Idempotency-Key.*at least one character/);
    assert.equal((await add(fields, undefined)).status, 200);
  });
});
