import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { runCli } from '../helpers/cli.ts';
import { describeWithDatabase, SQLITE } from '../helpers/each-database.ts';
import { withStore } from '../helpers/server.ts';
import {
  startWebhookReceiver,
  WEBHOOK_TEST_ENV,
  type WebhookReceiver,
} from '../helpers/webhook-receiver.ts';

describeWithDatabase('deskgate webhooks …', SQLITE, (database) => {
  let receiver: WebhookReceiver;
  before(async () => {
    receiver = await startWebhookReceiver();
    await withStore(database.url, async () => {});
  });
  after(() => receiver.close());
  const cli = (...args: string[]) =>
    runCli([...args, '--database', database.url], WEBHOOK_TEST_ENV);

  test('add shows the secret once; list, test, deliveries, redeliver and delete work as the operations', async () => {
    const added = await cli(
      'webhooks',
      'add',
      '--url',
      receiver.url,
      '--event',
      'ticket.*',
      '--json',
    );
    assert.equal(added.code, 0, added.stderr);
    const { id, secret } = JSON.parse(added.stdout) as { id: string; secret: string };
    assert.match(secret, /^whsec_/);
    receiver.secret = secret;

    const list = await cli('webhooks', 'list');
    assert.equal(list.code, 0, list.stderr);
    assert.match(list.stdout, new RegExp(receiver.url));
    assert.ok(!list.stdout.includes(secret.slice(6)));

    const ping = await cli('webhooks', 'test', id);
    assert.equal(ping.code, 0, ping.stderr);
    assert.match(ping.stdout, /^Delivered: status 200/);
    assert.ok(receiver.received.at(-1)?.verified);

    const log = await cli('webhooks', 'deliveries', id, '--json');
    assert.equal(log.code, 0, log.stderr);
    const [logged] = (JSON.parse(log.stdout) as { deliveries: { id: string; status: string }[] })
      .deliveries;
    assert.equal(logged?.status, 'delivered');

    const again = await cli('webhooks', 'redeliver', String(logged?.id));
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /^Queued delivery \d+/);

    const disabled = await cli('webhooks', 'update', id, '--disable', '--json');
    assert.equal(disabled.code, 0, disabled.stderr);
    assert.equal(
      (JSON.parse(disabled.stdout) as { webhook: { enabled: boolean } }).webhook.enabled,
      false,
    );

    const deleted = await cli('webhooks', 'delete', id);
    assert.equal(deleted.code, 0, deleted.stderr);
    const gone = await cli('webhooks', 'delete', id);
    assert.equal(gone.code, 1);
    assert.match(gone.stderr, /no webhook with id/);
  });

  test('bad input is a usage error naming the option; without the encryption key, add says so', async () => {
    const bad = await cli('webhooks', 'add', '--url', receiver.url, '--event', 'tickets.*');
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--events\.0 must name or match one of/);
    const unkeyed = await runCli(
      ['webhooks', 'add', '--url', receiver.url, '--event', '*', '--database', database.url],
      { ...WEBHOOK_TEST_ENV, DESKGATE_WEBHOOK_ENCRYPTION_KEY: '' },
    );
    assert.equal(unkeyed.code, 1);
    assert.match(unkeyed.stderr, /DESKGATE_WEBHOOK_ENCRYPTION_KEY/);
  });
});
