import assert from 'node:assert/strict';
import { test } from 'node:test';
import { rotateApiKey } from '../../src/auth/rotate-api-key.ts';
import { apiKeys } from '../../src/data/api-keys/api-keys.ts';
import { describeEachDatabaseKind } from '../helpers/each-database.ts';
import { grantOsticketKey } from '../helpers/osticket-key-grant.ts';
import type { TestServer } from '../helpers/test-server.ts';
import {
  addUser,
  addWebhook,
  type Data,
  dataOf,
  userCreatedIn,
  useWebhookSuite,
} from '../helpers/webhook-requests.ts';
import type { OsticketDatabase } from '../osticket/osticket-database.ts';

/**
 * The webhook's delivery deskgate refused to send, once there is one (a delivery that timed out
 * on a loaded machine fails too, with another error).
 */
async function firstRefused(server: TestServer, webhookId: string): Promise<Data> {
  for (;;) {
    const log = dataOf(
      await server.request({
        query: 'webhook',
        condition: 'deliveries',
        parameters: { webhook_id: webhookId, status: 'failed' },
      }),
    );
    const found = (log.deliveries as Data[]).find((d) => String(d.error).startsWith('not sent'));
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describeEachDatabaseKind("a webhook answers to its key's scopes when sent", (database) => {
  const suite = useWebhookSuite(database);
  const { server } = suite;
  const osticketMode = database.kind === 'osticket';

  // Keys of deskgate's own schema are revoked and rotated by `deskgate keys`; osTicket's, below.
  test('it follows a rotation of its key; once its key is revoked it is disabled, saying why', {
    skip: osticketMode && 'keys of deskgate’s own schema (`deskgate keys rotate`, `revoke`)',
  }, async () => {
    const receiver = suite.receiver;
    const { id: keyId, key } = await server.createKey({
      scopes: ['webhooks:manage', 'users:read'],
    });
    const webhookId = await addWebhook(server, receiver, ['user.*'], { key });
    const first = await addUser(server, `owner-first-${Date.now()}@example.com`);
    await receiver.waitFor(() => userCreatedIn(receiver, first));

    // `keys rotate` with no grace: the old key is revoked at once, the new one keeps its scopes.
    const rotated = await rotateApiKey(server.store, keyId, { graceMs: 0, nowMs: Date.now() });
    assert.equal(rotated.refused, undefined);
    const second = await addUser(server, `owner-rotated-${Date.now()}@example.com`);
    await receiver.waitFor(() => userCreatedIn(receiver, second));

    assert.ok(rotated.refused === undefined);
    assert.ok(await server.store.data(apiKeys).revokeApiKey(rotated.apiKey.id));
    // Deliveries are at least once: one sent before may come again, but no new event may.
    const eventsBefore = new Set(receiver.received.map((r) => r.id));
    await addUser(server, `owner-revoked-${Date.now()}@example.com`);
    const delivery = await firstRefused(server, webhookId);
    assert.equal(delivery.status, 'failed');
    assert.equal(delivery.attempts, 0, 'nothing was sent');
    assert.match(String(delivery.error), new RegExp(`^not sent: key ${keyId}, .* was revoked`));
    const webhook = dataOf(
      await server.request({
        query: 'webhook',
        condition: 'specific',
        parameters: { id: webhookId },
      }),
    ).webhook as Data;
    assert.equal(webhook.enabled, false);
    assert.match(String(webhook.disabled_reason), /^disabled: key \d+, .* was revoked/);
    assert.deepEqual(
      receiver.received.filter((r) => !eventsBefore.has(r.id)),
      [],
      'the receiver got no new event',
    );
    assert.ok(server.output.some((line) => line.includes('was revoked')));

    // Resumed only by a key that may read its events; that key is the one it answers to now.
    const { key: unable } = await server.createKey({ scopes: ['webhooks:manage'] });
    const enable = {
      query: 'webhook',
      condition: 'update',
      parameters: { id: webhookId, enabled: true },
    };
    const refused = await server.request(enable, { method: 'POST', key: unable });
    assert.equal(refused.status, 403, refused.text);
    dataOf(await server.request(enable, { method: 'POST' }));
    const fourth = await addUser(server, `owner-resumed-${Date.now()}@example.com`);
    await receiver.waitFor(() => userCreatedIn(receiver, fourth));
  });

  test('of an osTicket key: narrowed, it gets no more of what it may no longer read; turned off, it stops', {
    skip: !osticketMode && 'osTicket keys (`deskgate osticket keys grant`, osTicket’s admin panel)',
  }, async () => {
    const receiver = suite.receiver;
    const osticket = database.osticket as OsticketDatabase;
    // The suite's key was granted the notes too; `deskgate osticket keys grant` again, without.
    const webhookId = await addWebhook(server, receiver, ['ticket.*']);
    await grantOsticketKey(osticket, osticket.writeKey.id, [
      '--scope',
      'write,users:read,tickets:read,webhooks:manage',
      '--any-agent',
    ]);

    const queue = async (eventId: string, type: string) => {
      const payload = JSON.stringify({ id: eventId, type, occurred_at: '2026-11-28 00:00:00' });
      await osticket.query(
        `INSERT INTO deskgate_webhook_deliveries (webhook_id, event_id, event_type, payload, status,
           attempts, next_attempt_ms, created_ms) VALUES (?, ?, ?, ?, 'pending', 0, ?, ?)`,
        [Number(webhookId), eventId, type, payload, Date.now(), Date.now()],
      );
    };
    const settledDelivery = async (eventId: string) => {
      for (;;) {
        const [row] = await osticket.query<{ status: string; attempts: number; error: string }>(
          'SELECT status, attempts, error FROM deskgate_webhook_deliveries WHERE event_id = ?',
          [eventId],
        );
        if (row && row.status !== 'pending') return row;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    const stamp = Date.now();
    await queue(`evt_note_${stamp}`, 'ticket.note.created');
    await queue(`evt_reply_${stamp}`, 'ticket.reply.created');
    await receiver.waitFor((received) => received.some((r) => r.id === `evt_reply_${stamp}`));
    const note = await settledDelivery(`evt_note_${stamp}`);
    assert.equal(note.status, 'failed');
    assert.equal(note.attempts, 0);
    assert.match(
      String(note.error),
      /^not sent: key \d+, which subscribed this webhook, may no longer read ticket.note.created events$/,
    );
    assert.ok(!receiver.received.some((r) => r.id === `evt_note_${stamp}`));
    const webhooks = await osticket.query<{ enabled: number }>(
      'SELECT enabled FROM deskgate_webhooks WHERE id = ?',
      [Number(webhookId)],
    );
    assert.equal(Number(webhooks[0]?.enabled), 1, 'a narrowed key keeps its webhook');

    // The key turned off in osTicket's admin panel: the webhook is disabled, saying why.
    await osticket.query('UPDATE ost_api_key SET isactive = 0 WHERE id = ?', [
      osticket.writeKey.id,
    ]);
    await queue(`evt_after_${stamp}`, 'ticket.reply.created');
    const after = await settledDelivery(`evt_after_${stamp}`);
    assert.equal(after.status, 'failed');
    assert.match(
      String(after.error),
      /^not sent: key \d+, which subscribed this webhook, was revoked$/,
    );
    const [disabled] = await osticket.query<{ enabled: number; disabled_reason: string }>(
      'SELECT enabled, disabled_reason FROM deskgate_webhooks WHERE id = ?',
      [Number(webhookId)],
    );
    assert.equal(Number(disabled?.enabled), 0);
    assert.match(String(disabled?.disabled_reason), /^disabled: key \d+, .* was revoked/);
    assert.ok(!receiver.received.some((r) => r.id === `evt_after_${stamp}`));
  });
});
