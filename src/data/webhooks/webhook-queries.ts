import { randomUUID } from 'node:crypto';
import type { Generated, Kysely, Transaction } from 'kysely';
import type { DeliveryStatus } from '../../webhooks/retry-policy.ts';
import { insertReturningId } from '../common/insert-returning-id.ts';
import type { Dialect } from '../dialects/dialect.ts';
import { tablesOf } from '../entity.ts';
import type { EventTables } from '../events/event-rows.ts';
import { formatTimestamp } from '../time.ts';
import type {
  AttemptRecord,
  ClaimedDelivery,
  Delivery,
  DeliveryListQuery,
  NewDelivery,
  NewWebhook,
  QueueStats,
  Webhook,
  WebhookChanges,
} from './webhook.ts';

/** `webhooks` (migration 015; `deskgate_webhooks` in an osTicket database). */
export interface WebhookTable {
  id: Generated<number>;
  url: string;
  /** Comma-separated types and patterns. */
  events: string;
  description: string;
  secret_sealed: string;
  enabled: number;
  disabled_reason: string | null;
  failing_since_ms: number | string | null;
  /** The key that subscribed it (migration 017); null before that, 0 from the command line. */
  key_id: number | null;
  /** The feed position when it was made (migration 018); null before that. */
  after_event: number | string | null;
  created_at: string;
  updated_at: string;
}

export interface DeliveryTable {
  id: Generated<number>;
  webhook_id: number;
  event_id: string;
  event_type: string;
  payload: string;
  status: string;
  attempts: number;
  next_attempt_ms: number | string;
  claim_token: string | null;
  last_attempt_at: string | null;
  response_status: number | null;
  error: string | null;
  latency_ms: number | null;
  response_excerpt: string | null;
  created_ms: number | string;
  delivered_at: string | null;
}

export interface DispatchTable {
  name: string;
  position: string;
  updated_at: string;
}

export interface WebhookTables {
  webhooks: WebhookTable;
  webhook_deliveries: DeliveryTable;
  webhook_dispatch: DispatchTable;
}

type Db = Kysely<WebhookTables>;

const WEBHOOK_COLUMNS = [
  'id',
  'url',
  'events',
  'description',
  'enabled',
  'disabled_reason',
  'failing_since_ms',
  'key_id',
  'after_event',
  'created_at',
  'updated_at',
] as const;

const msToTimestamp = (ms: number) => formatTimestamp(new Date(ms));

function toWebhook(row: Omit<WebhookTable, 'id' | 'secret_sealed'> & { id: number }): Webhook {
  const failing = row.failing_since_ms === null ? null : Number(row.failing_since_ms);
  return {
    id: Number(row.id),
    url: row.url,
    events: row.events.split(',').filter(Boolean),
    description: row.description,
    enabled: Number(row.enabled) === 1,
    disabledReason: row.disabled_reason,
    failingSince: failing === null ? null : msToTimestamp(failing),
    keyId: row.key_id === null ? null : Number(row.key_id),
    afterEvent: row.after_event === null ? null : Number(row.after_event),
    created: formatTimestamp(row.created_at),
    updated: formatTimestamp(row.updated_at),
  };
}

const DELIVERY_COLUMNS = [
  'id',
  'webhook_id',
  'event_id',
  'event_type',
  'status',
  'attempts',
  'next_attempt_ms',
  'last_attempt_at',
  'response_status',
  'error',
  'latency_ms',
  'response_excerpt',
  'created_ms',
  'delivered_at',
] as const;

type DeliveryRow = Omit<Pick<DeliveryTable, (typeof DELIVERY_COLUMNS)[number]>, 'id'> & {
  id: number;
};

function toDelivery(row: DeliveryRow): Delivery {
  const status = row.status as DeliveryStatus;
  return {
    id: Number(row.id),
    webhookId: Number(row.webhook_id),
    eventId: row.event_id,
    eventType: row.event_type,
    status,
    attempts: Number(row.attempts),
    nextAttempt: status === 'pending' ? msToTimestamp(Number(row.next_attempt_ms)) : null,
    lastAttempt: row.last_attempt_at === null ? null : formatTimestamp(row.last_attempt_at),
    responseStatus: row.response_status === null ? null : Number(row.response_status),
    error: row.error,
    latencyMs: row.latency_ms === null ? null : Number(row.latency_ms),
    responseExcerpt: row.response_excerpt,
    created: msToTimestamp(Number(row.created_ms)),
    delivered: row.delivered_at === null ? null : formatTimestamp(row.delivered_at),
  };
}

export async function insertWebhook(
  trx: Db,
  dialect: Dialect,
  webhook: NewWebhook,
  at: string,
): Promise<number> {
  // The feed's last event as this transaction sees it: the webhook gets every event after it.
  const last = await tablesOf<EventTables>(trx as Kysely<object>)
    .selectFrom('events')
    .select((eb) => eb.fn.max('id').as('id'))
    .executeTakeFirst();
  return insertReturningId(
    trx.insertInto('webhooks').values({
      url: webhook.url,
      events: webhook.events.join(','),
      description: webhook.description,
      secret_sealed: webhook.secretSealed,
      enabled: 1,
      disabled_reason: null,
      failing_since_ms: null,
      key_id: webhook.keyId,
      after_event: Number(last?.id ?? 0),
      created_at: at,
      updated_at: at,
    }),
    dialect,
  );
}

export async function listWebhooks(db: Db, limit: number): Promise<Webhook[]> {
  const rows = await db
    .selectFrom('webhooks')
    .select(WEBHOOK_COLUMNS)
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map(toWebhook);
}

export async function findWebhook(db: Db, id: number): Promise<Webhook | undefined> {
  const row = await db
    .selectFrom('webhooks')
    .select(WEBHOOK_COLUMNS)
    .where('id', '=', id)
    .executeTakeFirst();
  return row && toWebhook(row);
}

export async function findSealedSecret(db: Db, id: number): Promise<string | undefined> {
  const row = await db
    .selectFrom('webhooks')
    .select('secret_sealed')
    .where('id', '=', id)
    .executeTakeFirst();
  return row?.secret_sealed;
}

export async function updateWebhook(
  trx: Db,
  id: number,
  changes: WebhookChanges,
  at: string,
): Promise<boolean> {
  const result = await trx
    .updateTable('webhooks')
    .set({
      updated_at: at,
      ...(changes.url === undefined ? {} : { url: changes.url }),
      ...(changes.events === undefined ? {} : { events: changes.events.join(',') }),
      ...(changes.description === undefined ? {} : { description: changes.description }),
      ...(changes.secretSealed === undefined ? {} : { secret_sealed: changes.secretSealed }),
      ...(changes.keyId === undefined ? {} : { key_id: changes.keyId }),
      ...(changes.enabled === undefined
        ? {}
        : changes.enabled
          ? { enabled: 1, disabled_reason: null, failing_since_ms: null }
          : { enabled: 0, disabled_reason: null }),
    })
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The webhook and its delivery log; false when there was none. */
export async function deleteWebhook(trx: Db, id: number): Promise<boolean> {
  await trx.deleteFrom('webhook_deliveries').where('webhook_id', '=', id).execute();
  const result = await trx.deleteFrom('webhooks').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function countWebhooks(db: Db): Promise<number> {
  const row = await db
    .selectFrom('webhooks')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** A delivery's row as queued: pending, due at `nowMs`, not yet attempted. */
function pendingRow(delivery: NewDelivery, nowMs: number) {
  return {
    webhook_id: delivery.webhookId,
    event_id: delivery.eventId,
    event_type: delivery.eventType,
    payload: delivery.payload,
    status: 'pending',
    attempts: 0,
    next_attempt_ms: nowMs,
    claim_token: null,
    last_attempt_at: null,
    response_status: null,
    error: null,
    latency_ms: null,
    response_excerpt: null,
    created_ms: nowMs,
    delivered_at: null,
  };
}

/** Queues deliveries, due now. */
export async function insertDeliveries(
  trx: Db,
  deliveries: readonly NewDelivery[],
  nowMs: number,
): Promise<void> {
  if (deliveries.length === 0) return;
  await trx
    .insertInto('webhook_deliveries')
    .values(deliveries.map((delivery) => pendingRow(delivery, nowMs)))
    .execute();
}

/** A delivery already attempted once (webhook/test's ping): logged with its outcome, never queued. */
export async function insertAttemptedDelivery(
  db: Db,
  dialect: Dialect,
  delivery: NewDelivery,
  record: AttemptRecord,
  nowMs: number,
): Promise<number> {
  return insertReturningId(
    db.insertInto('webhook_deliveries').values({
      ...pendingRow(delivery, nowMs),
      status: record.status,
      attempts: 1,
      last_attempt_at: record.at,
      response_status: record.responseStatus ?? null,
      error: record.error ?? null,
      latency_ms: record.latencyMs,
      response_excerpt: record.responseExcerpt,
      delivered_at: record.status === 'delivered' ? record.at : null,
    }),
    dialect,
  );
}

/**
 * Takes up to `limit` due deliveries of enabled webhooks for `leaseMs`: each gets a claim token
 * and its due time moves to the lease's end, so a holder that dies (kill -9) lets it fall due
 * again for any instance. The claim and the read of what sending needs (URL, sealed secret,
 * payload) are one transaction: a read that fails takes the claim back with it, so no attempt is
 * counted for a delivery never sent. PostgreSQL and MySQL skip the rows another instance is
 * claiming (FOR UPDATE SKIP LOCKED); SQLite's write lock makes the whole claim one step.
 */
export async function claimDueDeliveries(
  db: Db,
  dialect: Dialect,
  nowMs: number,
  leaseMs: number,
  limit: number,
): Promise<ClaimedDelivery[]> {
  const dueIn = (source: Db) =>
    source
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('status', '=', 'pending')
      .where('next_attempt_ms', '<=', nowMs)
      .where('webhook_id', 'in', (eb) =>
        eb.selectFrom('webhooks').select('id').where('enabled', '=', 1),
      )
      .orderBy('next_attempt_ms')
      .limit(limit);
  // Every instance polls each second: a poll that finds nothing due opens no write transaction
  // (on SQLite one would take the database's write lock from the requests every time).
  if ((await dueIn(db).limit(1).execute()).length === 0) return [];
  const claimToken = randomUUID();
  return dialect.writeTransaction(db, async (trx: Transaction<WebhookTables>) => {
    let due = dueIn(trx);
    if (dialect.name !== 'sqlite') due = due.forUpdate().skipLocked();
    const ids = (await due.execute()).map((row) => Number(row.id));
    if (ids.length === 0) return [];
    await trx
      .updateTable('webhook_deliveries')
      .set((eb) => ({
        claim_token: claimToken,
        next_attempt_ms: nowMs + leaseMs,
        attempts: eb('attempts', '+', 1),
        last_attempt_at: msToTimestamp(nowMs),
      }))
      .where('id', 'in', ids)
      .execute();
    const rows = await trx
      .selectFrom('webhook_deliveries')
      .innerJoin('webhooks', 'webhooks.id', 'webhook_deliveries.webhook_id')
      .select([
        'webhook_deliveries.id',
        'webhook_deliveries.webhook_id',
        'webhook_deliveries.event_id',
        'webhook_deliveries.event_type',
        'webhook_deliveries.payload',
        'webhook_deliveries.attempts',
        'webhooks.url',
        'webhooks.secret_sealed',
        'webhooks.key_id',
      ])
      .where('webhook_deliveries.id', 'in', ids)
      .orderBy('webhook_deliveries.next_attempt_ms')
      .execute();
    return rows.map((row) => ({
      id: Number(row.id),
      webhookId: Number(row.webhook_id),
      eventId: row.event_id,
      eventType: row.event_type,
      payload: row.payload,
      attempts: Number(row.attempts),
      url: row.url,
      secretSealed: row.secret_sealed,
      keyId: row.key_id === null ? null : Number(row.key_id),
      claimToken,
    }));
  });
}

/**
 * Records an attempt of a claimed delivery, if the claim still holds (a lease that ran out was
 * maybe taken by another instance: its record wins). Also keeps the webhook's failure record:
 * a success clears it; a failure starts it, and one that has lasted `disableAfterMs` disables
 * the webhook. Resolves to whether the record was written and whether the webhook was disabled.
 */
export async function recordAttempt(
  db: Db,
  dialect: Dialect,
  claimed: ClaimedDelivery,
  record: AttemptRecord,
  nowMs: number,
  disableAfterMs: number,
): Promise<{ recorded: boolean; disabled: boolean }> {
  return dialect.writeTransaction(db, async (trx: Transaction<WebhookTables>) => {
    const result = await trx
      .updateTable('webhook_deliveries')
      .set({
        status: record.status,
        next_attempt_ms: record.nextAttemptMs ?? nowMs,
        claim_token: null,
        response_status: record.responseStatus ?? null,
        error: record.error ?? null,
        latency_ms: record.latencyMs,
        response_excerpt: record.responseExcerpt,
        delivered_at: record.status === 'delivered' ? record.at : null,
      })
      .where('id', '=', claimed.id)
      .where('claim_token', '=', claimed.claimToken)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) return { recorded: false, disabled: false };
    return {
      recorded: true,
      disabled: await noteOutcome(trx, claimed.webhookId, record, nowMs, disableAfterMs),
    };
  });
}

/**
 * A claimed delivery deskgate will not send (its webhook's key may no longer read the event):
 * failed, with `error` saying why, and not counted as an attempt. With `disabledReason`, the
 * webhook is disabled too. False when the claim no longer held.
 */
export async function refuseDelivery(
  db: Db,
  dialect: Dialect,
  claimed: ClaimedDelivery,
  error: string,
  disabledReason: string | undefined,
  at: string,
): Promise<boolean> {
  return dialect.writeTransaction(db, async (trx: Transaction<WebhookTables>) => {
    const result = await trx
      .updateTable('webhook_deliveries')
      .set((eb) => ({
        status: 'failed',
        attempts: eb('attempts', '-', 1),
        claim_token: null,
        response_status: null,
        error,
        latency_ms: null,
        response_excerpt: null,
      }))
      .where('id', '=', claimed.id)
      .where('claim_token', '=', claimed.claimToken)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) return false;
    if (disabledReason !== undefined) {
      await trx
        .updateTable('webhooks')
        .set({ enabled: 0, disabled_reason: disabledReason, updated_at: at })
        .where('id', '=', claimed.webhookId)
        .where('enabled', '=', 1)
        .execute();
    }
    return true;
  });
}

/** The webhook's failure record after an attempt; true when this attempt disabled it. */
export async function noteOutcome(
  trx: Db,
  webhookId: number,
  record: AttemptRecord,
  nowMs: number,
  disableAfterMs: number,
): Promise<boolean> {
  if (record.status === 'delivered') {
    await trx
      .updateTable('webhooks')
      .set({ failing_since_ms: null })
      .where('id', '=', webhookId)
      .where('failing_since_ms', 'is not', null)
      .execute();
    return false;
  }
  await trx
    .updateTable('webhooks')
    .set({ failing_since_ms: nowMs })
    .where('id', '=', webhookId)
    .where('failing_since_ms', 'is', null)
    .execute();
  const reason = `disabled: every delivery failed for ${Math.round(disableAfterMs / 3_600_000)} hours or more`;
  const result = await trx
    .updateTable('webhooks')
    .set({ enabled: 0, disabled_reason: reason, updated_at: record.at })
    .where('id', '=', webhookId)
    .where('enabled', '=', 1)
    .where('failing_since_ms', '<=', nowMs - disableAfterMs)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function listDeliveries(db: Db, query: DeliveryListQuery): Promise<Delivery[]> {
  let select = db
    .selectFrom('webhook_deliveries')
    .select(DELIVERY_COLUMNS)
    .where('webhook_id', '=', query.webhookId);
  if (query.status !== undefined) select = select.where('status', '=', query.status);
  if (query.after !== undefined) select = select.where('id', '<', query.after);
  const rows = await select.orderBy('id', 'desc').limit(query.limit).execute();
  return rows.map(toDelivery);
}

export async function findDelivery(db: Db, id: number): Promise<Delivery | undefined> {
  const row = await db
    .selectFrom('webhook_deliveries')
    .select(DELIVERY_COLUMNS)
    .where('id', '=', id)
    .executeTakeFirst();
  return row && toDelivery(row);
}

/** A new pending delivery of the same event (same payload, same `webhook-id`); its id, or undefined. */
export async function redeliver(
  trx: Db,
  dialect: Dialect,
  deliveryId: number,
  nowMs: number,
): Promise<number | undefined> {
  const row = await trx
    .selectFrom('webhook_deliveries')
    .select(['webhook_id', 'event_id', 'event_type', 'payload'])
    .where('id', '=', deliveryId)
    .executeTakeFirst();
  if (!row) return undefined;
  const again = {
    webhookId: row.webhook_id,
    eventId: row.event_id,
    eventType: row.event_type,
    payload: row.payload,
  };
  return insertReturningId(
    trx.insertInto('webhook_deliveries').values(pendingRow(again, nowMs)),
    dialect,
  );
}

/** Forgets the deliveries queued before `cutoffMs` (the delivery log's retention); how many. */
export async function deleteDeliveriesBefore(db: Db, cutoffMs: number): Promise<number> {
  const result = await db
    .deleteFrom('webhook_deliveries')
    .where('created_ms', '<', cutoffMs)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function queueStats(db: Db): Promise<QueueStats> {
  const pending = await db
    .selectFrom('webhook_deliveries')
    .select((eb) => [
      eb.fn.countAll<number | string>().as('n'),
      eb.fn.min<number | string | null>('created_ms').as('oldest'),
    ])
    .where('status', '=', 'pending')
    .where('webhook_id', 'in', (eb) =>
      eb.selectFrom('webhooks').select('id').where('enabled', '=', 1),
    )
    .executeTakeFirst();
  const disabled = await db
    .selectFrom('webhooks')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('enabled', '=', 0)
    .executeTakeFirst();
  return {
    pending: Number(pending?.n ?? 0),
    oldestPendingMs:
      pending?.oldest === null || pending?.oldest === undefined
        ? undefined
        : Number(pending.oldest),
    disabledWebhooks: Number(disabled?.n ?? 0),
  };
}

/** The dispatcher's row in `webhook_dispatch`: where in the feed it has turned events into deliveries. */
const DISPATCH = 'events';

export async function readDispatchPosition(db: Db): Promise<string | undefined> {
  const row = await db
    .selectFrom('webhook_dispatch')
    .select('position')
    .where('name', '=', DISPATCH)
    .executeTakeFirst();
  return row?.position;
}

/** Sets the first position, unless another instance set one first; resolves to the one in force. */
export async function startDispatchAt(
  db: Db,
  dialect: Dialect,
  position: string,
  at: string,
): Promise<string> {
  try {
    await dialect.writeTransaction(db, (trx: Transaction<WebhookTables>) =>
      trx
        .insertInto('webhook_dispatch')
        .values({ name: DISPATCH, position, updated_at: at })
        .execute(),
    );
  } catch (error) {
    // Another instance started it first (the name is the primary key): its position holds.
    const found = await readDispatchPosition(db);
    if (found === undefined) throw error;
    return found;
  }
  return position;
}

/**
 * Moves the position from `from` to `to` and queues `deliveries`, in one transaction; false (and
 * nothing written) when the position is no longer `from` (another instance dispatched them).
 */
export async function advanceDispatch(
  db: Db,
  dialect: Dialect,
  from: string,
  to: string,
  deliveries: readonly NewDelivery[],
  nowMs: number,
  at: string,
): Promise<boolean> {
  return dialect.writeTransaction(db, async (trx: Transaction<WebhookTables>) => {
    const moved = await trx
      .updateTable('webhook_dispatch')
      .set({ position: to, updated_at: at })
      .where('name', '=', DISPATCH)
      .where('position', '=', from)
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) === 0) return false;
    await insertDeliveries(trx, deliveries, nowMs);
    return true;
  });
}
