/** The event types of SPEC §8e (the feed's own list), which webhooks subscribe to by name or by `prefix.*`. */
export { EVENT_TYPES } from '../data/events/event.ts';

/** What webhook/test posts: every webhook receives it, whatever it subscribed to. */
export const PING_EVENT_TYPE = 'webhook.ping';

/** `*`, a type, or a prefix of types and `.*` (`ticket.*`, `ticket.reply.*`). */
export const EVENT_PATTERN = /^(?:\*|[a-z][a-z_]*(?:\.[a-z][a-z_]*)*(?:\.\*)?)$/;

/** Whether `type` is one `pattern` selects. */
export function matchesEventType(pattern: string, type: string): boolean {
  if (pattern === '*') return true;
  if (pattern.endsWith('.*')) return type.startsWith(pattern.slice(0, -1));
  return pattern === type;
}

/** Whether a webhook subscribed to `patterns` receives events of `type`. */
export function subscribes(patterns: readonly string[], type: string): boolean {
  return patterns.some((pattern) => matchesEventType(pattern, type));
}
