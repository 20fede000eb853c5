import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { openStore } from './open-store.ts';
import { topics } from './topics/topics.ts';
import { users } from './users/users.ts';

describe('Store.data', () => {
  const dir = mkdtempSync(join(tmpdir(), 'deskgate-store-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  test("builds an entity's functions once per store, and refuses an entity the store was not opened for", async () => {
    const { store } = await openStore(
      { databaseUrl: `sqlite:${join(dir, 'store.db')}` },
      { migrate: true, entities: [topics] },
    );
    try {
      assert.equal(store.data(topics), store.data(topics));
      assert.equal((await store.data(topics).listTopics()).length, 4);
      assert.throws(() => store.data(users), /entity users is not among the store's entities/);
    } finally {
      await store.close();
    }
  });
});
