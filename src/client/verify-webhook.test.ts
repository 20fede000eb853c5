import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { verifyWebhook, WebhookVerificationError } from './verify-webhook.ts';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw6DKRs2Bpu4E=';

test('verifyWebhook accepts what the Standard Webhooks library signs, and nothing else', () => {
  const body = JSON.stringify({ id: 'evt_1', type: 'ticket.created' });
  const at = new Date();
  const headers = {
    'webhook-id': 'evt_1',
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(SECRET).sign('evt_1', at, body),
  };
  assert.deepEqual(verifyWebhook(SECRET, body, headers), { id: 'evt_1', type: 'ticket.created' });
  assert.deepEqual(verifyWebhook(SECRET, Buffer.from(body), new Headers(headers)), {
    id: 'evt_1',
    type: 'ticket.created',
  });
  // Several signatures (a rotation): one that matches is enough.
  const both = { ...headers, 'webhook-signature': `v1,AAAA ${headers['webhook-signature']}` };
  assert.ok(verifyWebhook(SECRET, body, both));
  for (const [what, bad] of [
    ['another body', { body: `${body} ` }],
    ['another id', { headers: { ...headers, 'webhook-id': 'evt_2' } }],
    ['an old timestamp', { headers: { ...headers, 'webhook-timestamp': '1000000000' } }],
    ['no signature', { headers: { ...headers, 'webhook-signature': '' } }],
    ['another secret', { secret: 'whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=' }],
  ] as const) {
    const input = { secret: SECRET, body, headers, ...bad };
    assert.throws(
      () => verifyWebhook(input.secret, input.body, input.headers),
      WebhookVerificationError,
      what,
    );
  }
});
