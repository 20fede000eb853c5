import * as z from 'zod';
import { webhooks } from '../../data/webhooks/webhooks.ts';
import { INT32_MAX } from '../fields.ts';
import { type ListCursor, listParameters, readList } from '../list-page.ts';
import { defineOperation } from '../operation.ts';
import { listResponse } from '../response-shapes.ts';
import {
  DELIVERY_EXAMPLE,
  deliveryViewSchema,
  toDeliveryView,
  webhookIdField,
} from '../views/webhook-view.ts';

/** A deliveries page resumes below the last delivery id it answered (newest first). */
const DELIVERY_CURSOR: ListCursor<number> = {
  encode: (id) => `d${id}`,
  decode(cursor) {
    const match = /^d([0-9]{1,10})$/.exec(cursor);
    const id = Number(match?.[1]);
    return match && id >= 1 && id <= INT32_MAX ? id : undefined;
  },
};

export const webhookDeliveriesParameters = z.strictObject({
  webhook_id: webhookIdField,
  status: z
    .enum(['pending', 'delivered', 'failed'])
    .optional()
    .meta({ description: 'Only deliveries in this state.' }),
  ...listParameters(DELIVERY_CURSOR, 'Deliveries'),
});

export const webhookDeliveriesResponse = listResponse(
  'deliveries',
  deliveryViewSchema,
  'deliveries',
  'Deliveries, newest first.',
);

export const webhookDeliveries = defineOperation({
  query: 'webhook',
  condition: 'deliveries',
  methods: ['GET'],
  scope: 'webhooks:manage',
  summary: "A webhook's delivery log (a week), newest first, by status, paged",
  description:
    'Needs `webhooks:manage`. The deliveries of the last week (DESKGATE_WEBHOOK_LOG_RETENTION), ' +
    'newest first: the event, `status` (`pending`, `delivered`, `failed`), attempts, the ' +
    "receiver's last status, error, latency and the start of its answer. Filter by `status`; " +
    'paged with `limit` / `after` / `next`. An unknown webhook has an empty log.',
  parameters: { '*': webhookDeliveriesParameters },
  response: webhookDeliveriesResponse,
  responseExample: { total: 1, deliveries: [DELIVERY_EXAMPLE] },
  examples: [
    {
      name: 'webhook-deliveries',
      summary: 'The last 50 failed deliveries of webhook 1',
      parameters: { webhook_id: 1, status: 'failed', limit: 50 },
    },
  ],
  uses: [webhooks],
  nothingFound: false,
  errors: ['too_many_results'],
  async handle({ parameters }, { data, config }) {
    const { elements, next } = await readList(
      {
        limit: parameters.limit,
        after: parameters.after,
        maxList: config.maxList,
        maxBytes: config.maxAnswerBytes,
        noun: 'deliveries',
        cursor: DELIVERY_CURSOR,
      },
      (count, after) =>
        data(webhooks).listDeliveries({
          webhookId: parameters.webhook_id,
          status: parameters.status,
          after,
          limit: count,
        }),
      (delivery) => delivery.id,
    );
    return {
      total: elements.length,
      deliveries: elements.map(toDeliveryView),
      ...(next === undefined ? {} : { next }),
    };
  },
});
