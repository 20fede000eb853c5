import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { verifyWebhook } from '../../src/client/verify-webhook.ts';

/** How long waitFor waits for a delivery: generous, for a loaded machine. */
const WAIT_FOR_MS = 120_000;

/** A 32-byte key as `openssl rand -base64 32` prints one. */
export const TEST_ENCRYPTION_KEY = 'q83vEjRWeJq83vEjRWeJq83vEjRWeJq83vEjRWeJq80=';

/** Short waits, so that retries happen within a test (configuration, not timing asserts). */
export const WEBHOOK_TEST_ENV: Record<string, string> = {
  DESKGATE_WEBHOOK_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
  DESKGATE_WEBHOOK_ALLOW_PRIVATE: '127.0.0.0/8',
  DESKGATE_WEBHOOK_RETRY_DELAYS: '50ms,50ms,50ms',
  DESKGATE_WEBHOOK_POLL_INTERVAL: '50ms',
  DESKGATE_WEBHOOK_TIMEOUT: '2s',
  DESKGATE_EVENTS_SETTLE_MS: '200',
};

/** One POST the receiver got, as it read it. */
export interface Received {
  id: string;
  timestamp: string;
  /** The body parsed, once the signature was verified with the standardwebhooks library. */
  event: Record<string, unknown>;
  /** Whether the signature verified (the library threw nothing). */
  verified: boolean;
  /** Why verification failed, when it did. */
  verifyError: string | undefined;
  /** Whether deskgate's client helper (verifyWebhook) accepts it too. */
  clientVerified: boolean;
  headers: IncomingHttpHeaders;
  /** performance.now() when it arrived. */
  at: number;
}

/** What to answer: a status (and headers, body), or `hang` to never answer. */
export type Answer = { status: number; headers?: Record<string, string>; body?: string } | 'hang';

/**
 * A webhook receiver on loopback: verifies every delivery with the Standard Webhooks reference
 * library (as an integrator's receiver would) and answers what `answer` says for it.
 */
export interface WebhookReceiver {
  readonly url: string;
  readonly port: number;
  readonly received: Received[];
  /** The secret to verify with (webhook/add's answer); set before deliveries arrive. */
  secret: string | undefined;
  answer: (delivery: Received, seen: number) => Answer;
  /** Resolves once `predicate` holds over the deliveries received (polled; no deadline of its own). */
  waitFor(predicate: (received: readonly Received[]) => boolean): Promise<void>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(path = '/hook'): Promise<WebhookReceiver> {
  const hanging = new Set<ServerResponse>();
  const receiver: WebhookReceiver = {
    url: '',
    port: 0,
    received: [],
    secret: undefined,
    answer: () => ({ status: 200, body: 'ok' }),
    async waitFor(predicate) {
      // Bounded, so that a delivery that never comes fails the test instead of holding the run.
      const deadline = Date.now() + WAIT_FOR_MS;
      while (!predicate(receiver.received)) {
        if (Date.now() > deadline)
          throw new Error(
            `no such delivery within ${WAIT_FOR_MS} ms (${receiver.received.length} received)`,
          );
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const header = (name: string) => String(req.headers[name] ?? '');
      let verified = false;
      let verifyError: string | undefined;
      let event: Record<string, unknown> = {};
      try {
        event = new Webhook(receiver.secret ?? 'whsec_').verify(body, {
          'webhook-id': header('webhook-id'),
          'webhook-timestamp': header('webhook-timestamp'),
          'webhook-signature': header('webhook-signature'),
        }) as Record<string, unknown>;
        verified = true;
      } catch (error) {
        verifyError = (error as Error).message;
      }
      let clientVerified = false;
      try {
        verifyWebhook(receiver.secret ?? 'whsec_', body, req.headers);
        clientVerified = true;
      } catch {}
      const delivery: Received = {
        clientVerified,
        id: header('webhook-id'),
        timestamp: header('webhook-timestamp'),
        event,
        verified,
        verifyError,
        headers: req.headers,
        at: performance.now(),
      };
      receiver.received.push(delivery);
      const seen = receiver.received.filter((r) => r.id === delivery.id).length;
      const answer = receiver.answer(delivery, seen);
      if (answer === 'hang') {
        hanging.add(res);
        return;
      }
      res.writeHead(answer.status, answer.headers ?? {});
      res.end(answer.body ?? '');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  Object.assign(receiver, { url: `http://127.0.0.1:${port}${path}`, port });
  return receiver;
}
