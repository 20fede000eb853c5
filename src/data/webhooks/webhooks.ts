import { type DataHandle, defineEntity, tablesOf, type WriteTransaction } from '../entity.ts';
import { now } from '../time.ts';
import type * as model from './webhook.ts';
import type { WebhookTables } from './webhook-queries.ts';
import * as queries from './webhook-queries.ts';

/** Webhooks and their deliveries (SPEC §8e): deskgate's own tables in every layout. */
export interface WebhookData {
  addWebhook(trx: WriteTransaction, webhook: model.NewWebhook, at: string): Promise<number>;
  /** False when there is no such webhook. */
  updateWebhook(
    trx: WriteTransaction,
    id: number,
    changes: model.WebhookChanges,
    at: string,
  ): Promise<boolean>;
  /** The webhook and its delivery log; false when there is no such webhook. */
  deleteWebhook(trx: WriteTransaction, id: number): Promise<boolean>;
  listWebhooks(limit: number): Promise<model.Webhook[]>;
  findWebhook(id: number): Promise<model.Webhook | undefined>;
  /** The signing secret as stored (sealed); never answered or logged. */
  findSealedSecret(id: number): Promise<string | undefined>;
  countWebhooks(): Promise<number>;
  /** Queues deliveries due now, in the caller's transaction (the dispatcher's, with its position). */
  queueDeliveries(
    trx: WriteTransaction,
    deliveries: readonly model.NewDelivery[],
    nowMs: number,
  ): Promise<void>;
  /** A new pending delivery of the event delivery `deliveryId` carried; undefined when it is gone. */
  redeliver(trx: WriteTransaction, deliveryId: number, nowMs: number): Promise<number | undefined>;
  /** Logs an attempt made at once (webhook/test); the delivery's id. */
  logAttempt(
    delivery: model.NewDelivery,
    record: model.AttemptRecord,
    nowMs: number,
  ): Promise<number>;
  claimDue(nowMs: number, leaseMs: number, limit: number): Promise<model.ClaimedDelivery[]>;
  recordAttempt(
    claimed: model.ClaimedDelivery,
    record: model.AttemptRecord,
    nowMs: number,
    disableAfterMs: number,
  ): Promise<{ recorded: boolean; disabled: boolean }>;
  /** A claimed delivery not sent, and not counted as an attempt (see refuseDelivery). */
  refuseDelivery(
    claimed: model.ClaimedDelivery,
    error: string,
    disabledReason: string | undefined,
  ): Promise<boolean>;
  listDeliveries(query: model.DeliveryListQuery): Promise<model.Delivery[]>;
  findDelivery(id: number): Promise<model.Delivery | undefined>;
  forgetDeliveriesBefore(cutoffMs: number): Promise<number>;
  queueStats(): Promise<model.QueueStats>;
  /** Where in the feed the dispatcher has turned events into deliveries; undefined before its first run. */
  dispatchPosition(): Promise<string | undefined>;
  /** Sets the first position, unless another instance did: resolves to the position in force. */
  startDispatchAt(position: string): Promise<string>;
  /**
   * Queues `deliveries` and moves the position from `from` to `to` in one transaction; false,
   * nothing written, when another instance moved it first.
   */
  advanceDispatch(
    from: string,
    to: string,
    deliveries: readonly model.NewDelivery[],
    nowMs: number,
  ): Promise<boolean>;
}

function makeWebhookData({ db: handleDb, dialect }: DataHandle): WebhookData {
  const db = tablesOf<WebhookTables>(handleDb);
  const inTrx = (trx: WriteTransaction) => tablesOf<WebhookTables>(trx);
  return {
    addWebhook: (trx, webhook, at) => queries.insertWebhook(inTrx(trx), dialect, webhook, at),
    updateWebhook: (trx, id, changes, at) => queries.updateWebhook(inTrx(trx), id, changes, at),
    deleteWebhook: (trx, id) => queries.deleteWebhook(inTrx(trx), id),
    listWebhooks: (limit) => queries.listWebhooks(db, limit),
    findWebhook: (id) => queries.findWebhook(db, id),
    findSealedSecret: (id) => queries.findSealedSecret(db, id),
    countWebhooks: () => queries.countWebhooks(db),
    queueDeliveries: (trx, deliveries, nowMs) =>
      queries.insertDeliveries(inTrx(trx), deliveries, nowMs),
    redeliver: (trx, deliveryId, nowMs) =>
      queries.redeliver(inTrx(trx), dialect, deliveryId, nowMs),
    logAttempt: (delivery, record, nowMs) =>
      queries.insertAttemptedDelivery(db, dialect, delivery, record, nowMs),
    claimDue: (nowMs, leaseMs, limit) =>
      queries.claimDueDeliveries(db, dialect, nowMs, leaseMs, limit),
    recordAttempt: (claimed, record, nowMs, disableAfterMs) =>
      queries.recordAttempt(db, dialect, claimed, record, nowMs, disableAfterMs),
    refuseDelivery: (claimed, error, disabledReason) =>
      queries.refuseDelivery(db, dialect, claimed, error, disabledReason, now()),
    listDeliveries: (query) => queries.listDeliveries(db, query),
    findDelivery: (id) => queries.findDelivery(db, id),
    forgetDeliveriesBefore: (cutoffMs) => queries.deleteDeliveriesBefore(db, cutoffMs),
    queueStats: () => queries.queueStats(db),
    dispatchPosition: () => queries.readDispatchPosition(db),
    startDispatchAt: (position) => queries.startDispatchAt(db, dialect, position, now()),
    advanceDispatch: (from, to, deliveries, nowMs) =>
      queries.advanceDispatch(db, dialect, from, to, deliveries, nowMs, now()),
  };
}

const ALL_ROWS = ['CREATE', 'INDEX', 'SELECT', 'INSERT', 'UPDATE', 'DELETE'] as const;

export const webhooks = defineEntity<WebhookData>({
  name: 'webhooks',
  own: makeWebhookData,
  osticket: makeWebhookData,
  osticketRequires: {
    comment: "webhooks (SPEC §8e): deskgate's own tables, created at the first start",
    tables: [
      { table: 'webhooks', own: true, privileges: ALL_ROWS },
      { table: 'webhook_deliveries', own: true, privileges: ALL_ROWS },
      {
        table: 'webhook_dispatch',
        own: true,
        privileges: ALL_ROWS,
        // The grant check probes UPDATE on the first column, which needs a default.
        columns: ['position', 'name', 'updated_at'],
      },
    ],
  },
});
