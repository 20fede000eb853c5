import type { ApiKeyData } from '../data/api-keys/api-keys.ts';
import { timestampToMs } from '../data/time.ts';
import type { ApiKey } from '../domain.ts';
import { typesVisibleTo } from '../operations/events-since/event-types.ts';
import { PING_EVENT_TYPE } from './event-types.ts';

/** Why a delivery is not sent; `disable`: the webhook can send nothing more, so it is disabled. */
export interface Refusal {
  error: string;
  disable: boolean;
}

/** Rotations followed at most: a chain longer than this is treated as a key gone. */
const MAX_ROTATIONS = 16;

type KeyLookup = Pick<ApiKeyData, 'findApiKeyById'>;

/** Why `key` no longer works (revoked, expired), or undefined while it does. */
function endOf(key: ApiKey, nowMs: number): string | undefined {
  if (key.revoked !== null) return 'was revoked';
  if (key.expires !== null && timestampToMs(key.expires) <= nowMs) return 'has expired';
  return undefined;
}

/**
 * The key a webhook's deliveries answer to now: its own, or, once `keys rotate` ended it, the key
 * that took its place (a rotation keeps the key's scopes and its webhooks). A key that ended
 * otherwise is answered as it is, for endOf to name.
 */
async function currentKey(keys: KeyLookup, id: number, nowMs: number): Promise<ApiKey | undefined> {
  let key = await keys.findApiKeyById(id);
  for (let turn = 0; key && turn < MAX_ROTATIONS; turn++) {
    if (key.replacedBy === null || endOf(key, nowMs) === undefined) return key;
    key = await keys.findApiKeyById(key.replacedBy);
  }
  return key;
}

/**
 * Whether a webhook subscribed by key `keyId` may still be sent an event of `eventType` (SPEC
 * §4a: no key does through deskgate more than it was given; decision 393): undefined when it may,
 * else why not. Checked when each delivery is sent, against the key's scopes then: a key revoked
 * or expired disables its webhooks; a key that lost a scope stops getting those events. Webhooks
 * of the command line (0) and of before keys were recorded (null) are the operator's.
 */
export async function ownerRefusal(
  keys: KeyLookup,
  keyId: number | null,
  eventType: string,
  nowMs: number,
): Promise<Refusal | undefined> {
  if (keyId === null || keyId === 0 || eventType === PING_EVENT_TYPE) return undefined;
  const key = await currentKey(keys, keyId, nowMs);
  const ended = key ? endOf(key, nowMs) : 'no longer exists';
  if (ended !== undefined) {
    return {
      error: `not sent: key ${keyId}, which subscribed this webhook, ${ended}`,
      disable: true,
    };
  }
  if (key && !(typesVisibleTo(key) as string[]).includes(eventType)) {
    return {
      error: `not sent: key ${key.id}, which subscribed this webhook, may no longer read ${eventType} events`,
      disable: false,
    };
  }
  return undefined;
}

/** The webhook's disabled_reason when its key ended. */
export function disabledReasonOf(refusal: Refusal): string {
  return `disabled: ${refusal.error.replace(/^not sent: /, '')}; webhook/update with enabled true, by a key that may read its events, resumes it`;
}
