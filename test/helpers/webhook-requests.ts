import assert from 'node:assert/strict';
import { after, before, type TestContext } from 'node:test';
import type { Scope } from '../../src/domain.ts';
import type { OsticketDatabase } from '../osticket/osticket-database.ts';
import type { KindDatabase, SuiteDatabase } from './each-database.ts';
import type { Reply } from './http.ts';
import { grantOsticketKey } from './osticket-key-grant.ts';
import {
  startTestServer,
  type TestRequestOptions,
  type TestServer,
  useTestServer,
} from './test-server.ts';
import {
  startWebhookReceiver,
  WEBHOOK_TEST_ENV,
  type WebhookReceiver,
} from './webhook-receiver.ts';

/* Requests the webhook tests share: add a webhook, queue a delivery, read the delivery log. */

export type Data = Record<string, unknown>;

export function dataOf(reply: Reply): Data {
  assert.equal(reply.status, 200, reply.text);
  return reply.body?.data as Data;
}

export async function addWebhook(
  server: TestServer,
  receiver: WebhookReceiver,
  events: string[] = ['ticket.*'],
  options: { description?: string; key?: string } = {},
): Promise<string> {
  const { description, key } = options;
  const parameters = {
    url: receiver.url,
    events,
    ...(description === undefined ? {} : { description }),
  };
  const added = dataOf(
    await server.request(
      { query: 'webhook', condition: 'add', parameters },
      { method: 'POST', ...(key === undefined ? {} : { key }) },
    ),
  );
  receiver.secret = String(added.secret);
  return String(added.id);
}

/** A user/add request body: a user.created event. */
export function userAddBody(name: string, email: string): Record<string, unknown> {
  return {
    query: 'user',
    condition: 'add',
    parameters: {
      name,
      email,
      password: 'secret-password',
      timezone: 'UTC',
      phone: 0,
      org_id: 0,
      default_email_id: 1,
      status: 0,
    },
  };
}

/** user/add of a user with `email`: its id (a user.created event). */
export async function addUser(server: TestServer, email: string): Promise<number> {
  const added = await server.request(userAddBody('Feed Reader', email), { method: 'POST' });
  return Number(dataOf(added));
}

/** webhook/test of webhook `id` on `server`: the attempt's answer. */
/** Whether `receiver` got the user.created event of user `userId`. */
export function userCreatedIn(
  receiver: Pick<WebhookReceiver, 'received'>,
  userId: number,
): boolean {
  return receiver.received.some(
    (r) => r.event.type === 'user.created' && (r.event.user as Data)?.id === userId,
  );
}

export async function pingWebhook(server: Pick<TestServer, 'request'>, id: string): Promise<Data> {
  return dataOf(
    await server.request(
      { query: 'webhook', condition: 'test', parameters: { id } },
      { method: 'POST' },
    ),
  );
}

/** A delivery through the queue: a ping logged by webhook/test, then sent again by webhook/redeliver. */
export async function queueDelivery(
  server: TestServer,
  id: string,
): Promise<{ eventId: string; deliveryId: string }> {
  const pinged = await pingWebhook(server, id);
  const pingDelivery = await findDelivery(server, id, String(pinged.delivery_id));
  const redelivered = dataOf(
    await server.request(
      { query: 'webhook', condition: 'redeliver', parameters: { delivery_id: pinged.delivery_id } },
      { method: 'POST' },
    ),
  );
  return { eventId: String(pingDelivery.event_id), deliveryId: String(redelivered) };
}

export async function findDelivery(
  server: TestServer,
  webhookId: string,
  deliveryId: string,
): Promise<Data> {
  const log = dataOf(
    await server.request({
      query: 'webhook',
      condition: 'deliveries',
      parameters: { webhook_id: webhookId, limit: 1000 },
    }),
  );
  const found = (log.deliveries as Data[]).find((d) => d.id === deliveryId);
  assert.ok(found, `delivery ${deliveryId} in ${JSON.stringify(log)}`);
  return found;
}

/** The delivery of event `eventId` to the webhook, once the log has it. */
export async function findEventDelivery(
  server: TestServer,
  webhookId: string,
  eventId: string,
): Promise<Data> {
  for (;;) {
    const log = dataOf(
      await server.request({
        query: 'webhook',
        condition: 'deliveries',
        parameters: { webhook_id: webhookId, limit: 1000 },
      }),
    );
    const found = (log.deliveries as Data[]).find((d) => d.event_id === eventId);
    if (found) return found;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Polls the delivery log until the delivery is no longer pending. */
export async function settled(
  server: TestServer,
  webhookId: string,
  deliveryId: string,
): Promise<Data> {
  for (;;) {
    const delivery = await findDelivery(server, webhookId, deliveryId);
    if (delivery.status !== 'pending') return delivery;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A suite's server, receiver and keys, on any kind of database (describeEachDatabaseKind). */
export interface WebhookSuite {
  /** The suite's server; a request goes with the suite's key unless it names one. */
  server: TestServer;
  readonly receiver: WebhookReceiver;
  /** Another server on the suite's database, `env` over the suite's settings; stopped when `t` ends. */
  startServer(t: Pick<TestContext, 'after'>, env: Record<string, string>): Promise<TestServer>;
  /** A key with just `scopes` (osTicket mode: an osTicket key granted them); its secret. */
  keyWith(scopes: readonly Scope[]): Promise<string>;
}

/** In osTicket mode the suite's key is an osTicket key granted every right webhooks need. */
const OSTICKET_SUITE_GRANT = [
  '--scope',
  'write,users:read,tickets:read,tickets:write,webhooks:manage',
  '--notes',
  '--any-agent',
];

/** `server` whose requests go with `key()` unless they name a key. */
function withDefaultKey(server: TestServer, key: () => string): TestServer {
  return Object.create(server, {
    request: {
      value: (body: unknown, options: TestRequestOptions = {}) =>
        server.request(body, { key: key(), ...options }),
    },
  }) as TestServer;
}

export function useWebhookSuite(database: KindDatabase | SuiteDatabase): WebhookSuite {
  const osticket = (): OsticketDatabase | undefined =>
    'osticket' in database ? database.osticket : undefined;
  const layoutEnv = (): Record<string, string> => ('env' in database ? database.env : {});
  before(async () => {
    const found = osticket();
    if (found) await grantOsticketKey(found, found.writeKey.id, OSTICKET_SUITE_GRANT);
  });
  const options = (env: Record<string, string> = {}) => ({
    database: database.url,
    env: { ...layoutEnv(), ...WEBHOOK_TEST_ENV, ...env },
    ownKey: database.kind !== 'osticket',
    notes: true,
  });
  const started = useTestServer(() => options());
  const suiteKey = () => osticket()?.writeKey.key ?? started.key;
  let receiver: WebhookReceiver | undefined;
  before(async () => {
    receiver = await startWebhookReceiver();
  });
  after(() => receiver?.close());
  return {
    server: withDefaultKey(started, suiteKey),
    get receiver() {
      if (!receiver) throw new Error('the receiver starts in a before hook: use it there');
      return receiver;
    },
    async startServer(t, env) {
      return withDefaultKey(await startTestServer(t, options(env)), suiteKey);
    },
    async keyWith(scopes) {
      const found = osticket();
      if (!found) return (await started.createKey({ scopes: [...scopes] })).key;
      await grantOsticketKey(found, found.readKey.id, ['--scope', scopes.join(',')]);
      return found.readKey.key;
    },
  };
}
