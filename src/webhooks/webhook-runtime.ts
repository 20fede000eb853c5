import type { Config } from '../config.ts';
import { type AddressGuard, makeAddressGuard } from './address-guard.ts';

const guards = new WeakMap<object, AddressGuard>();

/** The address guard of this configuration (DESKGATE_WEBHOOK_ALLOW_PRIVATE), built once. */
export function guardOf(config: Pick<Config, 'webhooks'>): AddressGuard {
  const key = config.webhooks;
  let guard = guards.get(key);
  if (!guard) {
    guard = makeAddressGuard(key.allowPrivate);
    guards.set(key, guard);
  }
  return guard;
}

/** What a start or webhook/add says when DESKGATE_WEBHOOK_ENCRYPTION_KEY is missing. */
export const ENCRYPTION_KEY_HINT =
  'set DESKGATE_WEBHOOK_ENCRYPTION_KEY to a 32-byte key (openssl rand -base64 32), kept as secret as the database password';
