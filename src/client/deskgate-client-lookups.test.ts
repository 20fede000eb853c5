import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { describeWithDatabase, SQLITE } from '../../test/helpers/each-database.ts';
import { validUserFields } from '../../test/helpers/http.ts';
import { useTestServer } from '../../test/helpers/test-server.ts';
// Imported the way users import it: through the package's "exports".
import { DeskgateClient, DeskgateClientError, type FeedEvent, type UserRecord } from './index.ts';

describeWithDatabase('DeskgateClient look-ups against the real server', SQLITE, (database) => {
  let client: DeskgateClient;
  let topicsOnly: DeskgateClient;
  const ids: string[] = [];
  // Declared before the server, so the clients close before it stops.
  after(() => {
    client?.close();
    topicsOnly?.close();
  });
  const server = useTestServer({ database });

  before(async () => {
    const { key } = await server.createKey({ scopes: ['read', 'write', 'users:read'] });
    const { key: readKey } = await server.createKey({ scopes: ['read'] });
    client = new DeskgateClient({ baseUrl: server.origin, apiKey: key, retryDelayMs: 10 });
    topicsOnly = new DeskgateClient({ baseUrl: server.origin, apiKey: readKey, retries: 0 });
    for (let i = 0; i < 5; i++) {
      const fields = validUserFields({ email: `client.${i}@example.com`, phone: 100 + i });
      ids.push(await client.addUser(fields));
    }
  });

  test('topicsAll lists topics in order; parent narrows them', async () => {
    const all = await client.topicsAll();
    assert.ok(all.length >= 4);
    assert.ok(all.some((topic) => topic.topic === 'General Inquiry'));
    const children = await client.topicsAll({ parent: 10 });
    assert.ok(children.length > 0);
    assert.ok(children.every((topic) => topic.parent === '10'));
    assert.deepEqual(await client.topicsAll({ parent: 999 }), []);
  });

  test('topicByName finds by part of the name, any case; null when none', async () => {
    assert.equal((await client.topicByName('GENERAL'))?.topic, 'General Inquiry');
    assert.equal(await client.topicByName('no such topic'), null);
  });

  test('userById and userByEmail return the User view, or null', async () => {
    const byId = await client.userById(ids[0] as string);
    assert.equal(byId?.email, 'client.0@example.com');
    assert.equal(byId?.phone, '100');
    const byEmail = await client.userByEmail('CLIENT.1@example.com');
    assert.equal(byEmail?.user_id, ids[1]);
    assert.equal(await client.userById(2147483647), null);
    assert.equal(await client.userByEmail('nobody@example.com'), null);
  });

  test('usersCreatedBetween pages with next; eachUserCreatedBetween walks every page', async () => {
    const first = await client.usersCreatedBetween('2000-01-01', '2999-12-31', { limit: 2 });
    assert.equal(first.users.length, 2);
    assert.equal(typeof first.next, 'string');
    const second = await client.usersCreatedBetween('2000-01-01', '2999-12-31', {
      limit: 2,
      after: first.next as string,
    });
    assert.deepEqual(
      [...first.users, ...second.users].map((user) => user.user_id),
      ids.slice(0, 4),
    );
    const all: UserRecord[] = [];
    for await (const user of client.eachUserCreatedBetween('2000-01-01', '2999-12-31', {
      limit: 2,
    })) {
      all.push(user);
    }
    assert.deepEqual(
      all.map((user) => user.user_id),
      ids,
    );
    const empty = await client.usersCreatedBetween('2001-01-01', '2001-01-02');
    assert.deepEqual(empty, { users: [], next: undefined });
  });

  test('lookUp is the typed way to any look-up; errors arrive as DeskgateClientError', async () => {
    const data = await client.lookUp('topics/specific', { sort: 'id', parameters: { id: 1 } });
    assert.equal(data?.topic.id, '1');
    await assert.rejects(
      client.lookUp('user/all', {
        sort: 'creationDate',
        parameters: { start_date: '2026-02-30', end_date: '2026-03-01' },
      }),
      (error: unknown) =>
        error instanceof DeskgateClientError &&
        error.code === 'invalid_parameters' &&
        error.errors.some((e) => e.field === 'parameters.start_date'),
    );
    await assert.rejects(
      topicsOnly.userById(ids[0] as string),
      (error: unknown) =>
        error instanceof DeskgateClientError && error.code === 'insufficient_scope',
    );
  });

  test('eventsSince reads the feed page by page, typed; next is always there', async () => {
    const seen: FeedEvent[] = [];
    let page = await client.eventsSince({ start_time: '2000-01-01', limit: 2 });
    for (let pages = 0; pages < 50; pages++) {
      seen.push(...page.events);
      if (page.end_of_stream) break;
      page = await client.eventsSince({ after: page.next, limit: 2 });
    }
    assert.equal(page.end_of_stream, true);
    assert.equal(typeof page.next, 'string');
    const created = seen.filter((event) => event.type === 'user.created');
    assert.deepEqual(
      created.map((event) => String(event.user?.id)),
      ids,
    );
  });
});
