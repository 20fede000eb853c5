import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import { createConnection } from 'mysql2/promise';
import pg from 'pg';
import { pino } from 'pino';
import { openStore } from '../../src/data/open-store.ts';
import { webhooks } from '../../src/data/webhooks/webhooks.ts';
import { startDeliveryWorker } from '../../src/webhooks/delivery-worker.ts';
import type { WebhookConfig } from '../../src/webhooks/webhook-config.ts';
import { DATABASES } from '../helpers/databases.ts';
import { describeWithDatabase, type SuiteDatabase } from '../helpers/each-database.ts';
import { useTestServer } from '../helpers/test-server.ts';
import { startWebhookReceiver, WEBHOOK_TEST_ENV } from '../helpers/webhook-receiver.ts';
import { addWebhook, findDelivery, queueDelivery } from '../helpers/webhook-requests.ts';

/**
 * A database user that may claim deliveries (read `webhooks.id` and `enabled`, read and update
 * `webhook_deliveries`) but not read a webhook's sealed secret: the read that follows the claim
 * fails, for real, on the database server. Its URL, and how to drop it again.
 */
async function userWhoCannotReadSecrets(
  database: SuiteDatabase,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const user = `dg_claim_${randomBytes(4).toString('hex')}`;
  const url = new URL(database.url);
  const name = url.pathname.slice(1);
  const statements =
    database.kind === 'postgres'
      ? [
          `create role ${user} login`,
          `grant select (id, enabled, url) on webhooks to ${user}`,
          `grant select, update on webhook_deliveries to ${user}`,
          `grant select on all tables in schema public to ${user}`,
          `revoke select on webhooks from ${user}`,
          `grant select (id, enabled, url) on webhooks to ${user}`,
        ]
      : [
          `create user '${user}'@'%'`,
          `grant select (id, enabled, url) on ${name}.webhooks to '${user}'@'%'`,
          `grant select, update on ${name}.webhook_deliveries to '${user}'@'%'`,
          `grant select on ${name}.deskgate_migration to '${user}'@'%'`,
          `grant select on ${name}.deskgate_migration_lock to '${user}'@'%'`,
        ];
  const drops =
    database.kind === 'postgres'
      ? [`drop owned by ${user}`, `drop role ${user}`]
      : [`drop user '${user}'@'%'`];
  const run = (list: string[]) => runStatements(database, list);
  await run(statements);
  url.username = user;
  url.password = '';
  return { url: url.toString(), drop: () => run(drops) };
}

async function runStatements(database: SuiteDatabase, statements: string[]): Promise<void> {
  if (database.kind === 'postgres') {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      for (const statement of statements) await client.query(statement);
    } finally {
      await client.end();
    }
  } else {
    const connection = await createConnection(database.url);
    try {
      for (const statement of statements) await connection.query(statement);
    } finally {
      await connection.end();
    }
  }
}

const SETTINGS: WebhookConfig = {
  encryptionKeys: [],
  allowPrivate: [],
  timeoutMs: 1_000,
  maxResponseBytes: 1_024,
  retryDelaysMs: [50],
  disableAfterMs: 86_400_000,
  logRetentionMs: 86_400_000,
  concurrency: 1,
  pollIntervalMs: 50,
};

for (const kind of DATABASES.filter((d) => d.name !== 'sqlite')) {
  describeWithDatabase(`a delivery claimed but not read on ${kind.name}`, kind, (database) => {
    // This instance only queues: the worker under test is the one below.
    const server = useTestServer(() => ({
      database,
      env: { ...WEBHOOK_TEST_ENV, DESKGATE_WEBHOOK_CONCURRENCY: '0' },
      notes: true,
    }));

    test('is not counted as an attempt, and the failure is logged', async (t) => {
      const receiver = await startWebhookReceiver();
      t.after(() => receiver.close());
      const webhookId = await addWebhook(server, receiver);
      const { deliveryId } = await queueDelivery(server, webhookId);
      const restricted = await userWhoCannotReadSecrets(database);
      t.after(() => restricted.drop());
      const { store } = await openStore(
        { databaseUrl: restricted.url },
        { migrate: false, entities: [webhooks] },
      );
      t.after(() => store.close());
      const lines: string[] = [];
      const logger = pino(
        { level: 'info' },
        new Writable({
          write(chunk: Buffer, _encoding, done) {
            lines.push(chunk.toString());
            done();
          },
        }),
      );
      const worker = startDeliveryWorker({
        data: store.data(webhooks),
        config: { webhooks: SETTINGS },
        logger,
        metrics: undefined,
      });
      try {
        while (!lines.some((line) => line.includes('could not be claimed and read'))) {
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        // A few more turns, each failing the same way.
        await new Promise((resolve) => setTimeout(resolve, 300));
      } finally {
        await worker.stop();
      }
      assert.match(
        lines.find((line) => line.includes('could not be claimed')) ?? '',
        /secret_sealed|permission denied|command denied/i,
      );
      const delivery = await findDelivery(server, webhookId, deliveryId);
      assert.equal(delivery.status, 'pending');
      assert.equal(delivery.attempts, 0, 'a delivery never sent counts no attempt');
    });
  });
}
