/** The feed's event types (SPEC §8e). */
export const EVENT_TYPES = [
  'ticket.created',
  'ticket.message.created',
  'ticket.reply.created',
  'ticket.note.created',
  'ticket.status_changed',
  'ticket.assigned',
  'ticket.transferred',
  'ticket.updated',
  'ticket.overdue',
  'ticket.deleted',
  'task.created',
  'user.created',
  'user.erased',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/** Who made a change: an agent, an end user, an API key acting as no one, or deskgate/osTicket itself. */
export interface EventActor {
  type: 'staff' | 'user' | 'api' | 'system';
  /** The agent's, user's or (type `api`) key's id; null for `system`. */
  id: number | null;
  name: string | null;
  /** The deskgate or osTicket API key the change was made with, when one was. */
  api_key_id?: number;
}

/** One event as the feed and webhooks serve it (SPEC §8e). */
export interface FeedEvent {
  /** Stable and unique (`evt_…`): the `webhook-id` of its deliveries, a de-duplication key. */
  id: string;
  /** Its place in the feed: later events have greater numbers (not necessarily consecutive). */
  seq: number;
  type: EventType;
  /** ISO 8601 UTC, e.g. `2026-11-27T21:03:00Z`. */
  occurred_at: string;
  ticket?: { id: number; number: string };
  user?: { id: number };
  actor: EventActor;
  /** What changed, `field: [before, after]` (ticket.status_changed: `status_id`). */
  changes: Record<string, unknown>;
  /** The rest: ids of the entry, task, agent, department…; never a message body. */
  data: Record<string, unknown>;
}

/** An event to append: what FeedEvent holds but its id and seq, which append gives it. */
export interface NewEvent {
  type: EventType;
  /** `YYYY-MM-DD HH:MM:SS` UTC, the change's own time. */
  occurredAt: string;
  ticket?: { id: number; number: string } | undefined;
  user?: { id: number } | undefined;
  actor: EventActor;
  changes?: Record<string, unknown>;
  data?: Record<string, unknown>;
  /** A stable id (the osTicket reader derives it from osTicket's row); absent, a random `evt_…`. */
  id?: string;
  /** osTicket mode: osTicket's thread of the ticket (kept, never served). */
  threadId?: number;
}
