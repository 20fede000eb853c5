import { EVENT_TYPES, type EventType } from '../../data/events/event.ts';
import type { ApiKey } from '../../domain.ts';

/**
 * The types a key may read: ticket events with `tickets:read` (notes, and tasks, which are
 * agent-internal, only with the notes grant too, decision 322), user events with `users:read`.
 */
export function typesVisibleTo(apiKey: Pick<ApiKey, 'scopes' | 'notes'>): EventType[] {
  return EVENT_TYPES.filter((type) => {
    if (type.startsWith('user.')) return apiKey.scopes.includes('users:read');
    if (!apiKey.scopes.includes('tickets:read')) return false;
    return apiKey.notes || (type !== 'ticket.note.created' && type !== 'task.created');
  });
}

/** A type or a pattern of them: `ticket.*`, `ticket.message.created`, `*`. */
export function matchesPattern(type: EventType, pattern: string): boolean {
  if (pattern === '*') return true;
  if (pattern.endsWith('.*')) return type.startsWith(pattern.slice(0, -1));
  return type === pattern;
}

/** Whether `pattern` names at least one type (else the caller mistyped it). */
export function isKnownPattern(pattern: string): boolean {
  return EVENT_TYPES.some((type) => matchesPattern(type, pattern));
}
