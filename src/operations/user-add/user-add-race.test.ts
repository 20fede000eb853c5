import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { describeEachDatabaseKind } from '../../../test/helpers/each-database.ts';
import { call, userBody } from '../../../test/helpers/http.ts';
import { useKindServer } from '../../../test/helpers/kind-server.ts';
import {
  findUserIdsOfKind,
  userTableCountsOfKind,
} from '../../../test/helpers/user-rows-of-kind.ts';

const RACERS = 50;

/** The same address with its letters' case varied by `n`, so no two racers send the same bytes. */
function mixedCase(address: string, n: number): string {
  return [...address]
    .map((c, i) => (((n >> (i % 6)) & 1) === 1 ? c.toUpperCase() : c.toLowerCase()))
    .join('');
}

describeEachDatabaseKind('user/add under concurrency', (database) => {
  const server = useKindServer(database);
  let key: string;
  before(async () => {
    ({ key } = database.osticket?.writeKey ?? (await server.createKey({ scopes: ['write'] })));
  });

  test(`${RACERS} simultaneous adds of one email in mixed case → one 200, the rest 409, one user`, async () => {
    const address = 'race.condition.user@example.com';
    const emails = Array.from({ length: RACERS }, (_, n) => mixedCase(address, n));
    assert.ok(new Set(emails).size > RACERS / 2, 'the racers send differently cased addresses');

    const replies = await Promise.all(
      emails.map((email, n) =>
        call(server.url, {
          method: 'POST',
          headers: { apikey: key },
          body: userBody({ email, name: `Racer ${n}` }),
        }),
      ),
    );

    const winners = replies.filter((r) => r.status === 200);
    const losers = replies.filter((r) => r.status === 409);
    assert.equal(
      winners.length,
      1,
      `statuses: ${replies.map((r) => r.status).join(',')}\n${replies.find((r) => r.status !== 200 && r.status !== 409)?.text ?? ''}`,
    );
    assert.equal(losers.length, RACERS - 1);
    const winnerId = String(winners[0]?.body?.data);
    for (const loser of losers) {
      assert.equal(loser.body?.code, 'duplicate_email');
      assert.equal(loser.body?.existing_id, winnerId);
    }

    assert.deepEqual(await findUserIdsOfKind(database, address), [Number(winnerId)]);
    assert.deepEqual(await userTableCountsOfKind(database), [1, 1, 1, 1]);
  });

  test('simultaneous adds of different emails all succeed', async () => {
    const before = await userTableCountsOfKind(database);
    const replies = await Promise.all(
      Array.from({ length: 20 }, (_, n) =>
        call(server.url, {
          method: 'POST',
          headers: { apikey: key },
          body: userBody({ email: `parallel.${n}@example.com` }),
        }),
      ),
    );
    assert.deepEqual(
      replies.map((r) => r.status),
      replies.map(() => 200),
    );
    assert.equal(new Set(replies.map((r) => r.body?.data)).size, 20);
    assert.deepEqual(
      await userTableCountsOfKind(database),
      before.map((n) => n + 20),
    );
  });
});
