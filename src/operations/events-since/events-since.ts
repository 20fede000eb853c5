import * as z from 'zod';
import { EVENT_TYPES } from '../../data/events/event.ts';
import { type EventData, events } from '../../data/events/events.ts';
import { RejectedValueError } from '../../data/store.ts';
import { formatTimestamp } from '../../data/time.ts';
import { DeskgateError } from '../../errors.ts';
import { MESSAGES } from '../../messages.ts';
import { clientRecord } from '../client-records.ts';
import { INT32_MAX, integerField } from '../fields.ts';
import { defineOperation } from '../operation.ts';
import { toParameterError } from '../record-operation-write.ts';
import { decodeCursor, encodeCursor } from './event-cursor.ts';
import { isKnownPattern, matchesPattern, typesVisibleTo } from './event-types.ts';

const TIME =
  /^\d{4}-\d{2}-\d{2}(?:[ T]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

const startTime = z
  .string()
  .regex(TIME, { error: 'must be a date or time such as 2026-11-27T21:00:00Z' })
  .refine((text) => !Number.isNaN(Date.parse(withZone(text))), {
    error: 'must be a date or time such as 2026-11-27T21:00:00Z',
  })
  .transform((text) => formatTimestamp(new Date(Date.parse(withZone(text)))))
  .meta({
    description:
      'First call: the events that occurred from this time on (ISO 8601; UTC when no zone is given).',
    examples: ['2026-11-27T00:00:00Z'],
  });

/** A time without a zone is UTC; a date alone is its midnight. */
function withZone(text: string): string {
  const time = text.length === 10 ? `${text}T00:00:00` : text.replace(' ', 'T');
  return /(?:Z|[+-]\d{2}:?\d{2})$/.test(time) ? time : `${time}Z`;
}

export const eventsSinceParameters = z
  .strictObject({
    start_time: startTime.optional(),
    after: z.string().max(64).optional().meta({
      description: 'Later calls: the `next` of the previous answer.',
    }),
    limit: integerField(1, 1000)
      .optional()
      .meta({ description: 'At most this many events (1–1000, default 100).' }),
    types: z
      .array(
        z.string().refine(isKnownPattern, {
          error: `must name event types: ${EVENT_TYPES.join(', ')}, or a pattern such as ticket.*`,
        }),
      )
      .min(1)
      .max(20)
      .optional()
      .meta({ description: 'Only these types, e.g. `["ticket.*", "user.created"]`.' }),
    ticket_id: integerField(1, INT32_MAX)
      .optional()
      .meta({ description: "Only this ticket's events." }),
  })
  .superRefine((parameters, ctx) => {
    if (parameters.start_time === undefined && parameters.after === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['start_time'],
        message: 'is required on the first call (later calls send after)',
      });
    } else if (parameters.start_time !== undefined && parameters.after !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['after'], message: 'cannot be sent with start_time' });
    }
  });

const actorSchema = z.strictObject({
  type: z.enum(['staff', 'user', 'api', 'system']),
  id: z.int().nullable(),
  name: z.string().nullable(),
  api_key_id: z
    .int()
    .optional()
    .meta({ description: 'The API key the change was made with (break loops on your own).' }),
});

export const feedEventSchema = z
  .strictObject({
    id: z.string().meta({ description: 'Stable and unique: de-duplicate on it.' }),
    seq: z.int().meta({ description: 'Its place in the feed (increasing, with gaps).' }),
    type: z.enum(EVENT_TYPES),
    occurred_at: z.string().meta({ examples: ['2026-11-27T21:03:00Z'] }),
    ticket: z.strictObject({ id: z.int(), number: z.string() }).optional(),
    user: z.strictObject({ id: z.int() }).optional(),
    actor: actorSchema,
    changes: z.record(z.string(), z.unknown()),
    data: z.record(z.string(), z.unknown()),
  })
  .meta({ description: 'One change (SPEC §8e); never a message body.' });
clientRecord(feedEventSchema, 'FeedEvent');

const EXAMPLE = {
  id: 'evt_3f0c9a4be1f54c0f9d2a7c1e8b6d5a40',
  seq: 42,
  type: 'ticket.reply.created' as const,
  occurred_at: '2026-11-27T21:03:00Z',
  ticket: { id: 7, number: '318472' },
  actor: { type: 'staff' as const, id: 1, name: 'Alex Agent', api_key_id: 3 },
  changes: {},
  data: { entry_id: 12, staff_id: 1 },
};

/** Sweeps are rare (one per process per interval) and small once the backlog is gone. */
const SWEEP_INTERVAL_MS = 10 * 60_000;
let lastSweep = 0;

async function sweepNowAndThen(feed: EventData, retentionMs: number): Promise<void> {
  const now = Date.now();
  if (now - lastSweep < SWEEP_INTERVAL_MS) return;
  lastSweep = now;
  await feed.sweep(now - retentionMs);
}

export const eventsSince = defineOperation({
  query: 'events',
  condition: 'since',
  methods: ['GET'],
  scope: 'tickets:read',
  otherScopes: ['users:read'],
  summary: 'Read the change feed (ticket, task and user events) from a time or a cursor',
  description:
    'The changes to tickets, tasks and users in the order they were committed (SPEC §8e): ' +
    '`start_time` on the first call, then the `next` of each answer as `after` (always present: ' +
    'poll with it). Needs `tickets:read` for ticket events (notes and tasks with the notes grant ' +
    'too) or `users:read` for user events: a key sees only the types it may read. ' +
    '`end_of_stream` says the reader is caught up. Events after a gap in the sequence that may ' +
    'be a transaction not yet committed are held back for DESKGATE_EVENTS_SETTLE_MS, so none is ' +
    'ever skipped. A cursor older than DESKGATE_EVENTS_RETENTION_DAYS (30) → 410 ' +
    '`cursor_expired`. No message bodies: read the ticket for them.',
  parameters: { '*': eventsSinceParameters },
  response: z
    .strictObject({
      events: z.array(feedEventSchema),
      next: z.string().meta({ description: 'Pass it as `parameters.after` on the next call.' }),
      end_of_stream: z
        .boolean()
        .meta({ description: 'Nothing more to read now: poll again later with `next`.' }),
    })
    .meta({ description: 'A page of the feed, oldest first.' }),
  responseExample: { events: [EXAMPLE], next: 'ZTEuNDIuMTc5NjMzMDU4MDAwMA', end_of_stream: true },
  examples: [
    {
      name: 'from-a-time',
      summary: 'The ticket events since midnight',
      parameters: { start_time: '2026-11-27T00:00:00Z', types: ['ticket.*'] },
    },
    {
      name: 'next-page',
      summary: 'The events after the previous answer',
      parameters: { after: 'ZTEuNDIuMTc5NjMzMDU4MDAwMA' },
    },
  ],
  uses: [events],
  nothingFound: false,
  errors: ['cursor_expired'],
  async handle({ parameters }, { apiKey, config, data }) {
    const visible = typesVisibleTo(apiKey);
    const wanted = parameters.types;
    let types = wanted
      ? visible.filter((type) => wanted.some((pattern) => matchesPattern(type, pattern)))
      : visible;
    if (parameters.ticket_id !== undefined) types = types.filter((t) => !t.startsWith('user.'));
    const feed = data(events);
    const issuedMs = Date.now();
    const retentionMs = config.eventsRetentionDays * 86_400_000;
    let after: number;
    if (parameters.after !== undefined) {
      const cursor = decodeCursor(parameters.after);
      if (!cursor) {
        throw toParameterError(
          new RejectedValueError(
            'after',
            "is not a cursor deskgate gave out (send an answer's next)",
          ),
        );
      }
      if (cursor.issuedMs < issuedMs - retentionMs) {
        throw new DeskgateError('cursor_expired', MESSAGES.cursorExpired);
      }
      after = cursor.seq;
    } else {
      after = await feed.positionAt(parameters.start_time ?? '');
    }
    await sweepNowAndThen(feed, retentionMs);
    if (types.length === 0) {
      return { events: [], next: encodeCursor({ seq: after, issuedMs }), end_of_stream: true };
    }
    const page = await feed.page({
      after,
      limit: parameters.limit ?? 100,
      types,
      ticketId: parameters.ticket_id,
      settleMs: config.eventsSettleMs,
    });
    return {
      events: page.events,
      next: encodeCursor({ seq: page.next, issuedMs }),
      end_of_stream: page.endOfStream,
    };
  },
});
