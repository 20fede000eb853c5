import { UnsupportedInModeError } from '../store.ts';

/** The one line that says `what` is managed in osTicket (its admin panel, or `where`). */
export function managedInOsticketMessage(what: string, where = 'admin panel'): string {
  return `in osTicket mode ${what} are managed in osTicket's ${where}, not by deskgate`;
}

/** A function osTicket mode does not offer: `what` is managed in osTicket's admin panel (or `where`). */
export function managedByOsticket(what: string, where?: string): () => Promise<never> {
  return async () => {
    throw new UnsupportedInModeError(managedInOsticketMessage(what, where));
  };
}

/**
 * `capability`: what an entity's API offers on deskgate's own schema only (an optional member,
 * or an entity whose osTicket layout is undefined). Where it is undefined, osTicket mode: the
 * UnsupportedInModeError saying osTicket manages `what` in its admin panel (or `where`).
 */
export function requireCapability<Capability>(
  capability: Capability | undefined,
  what: string,
  where?: string,
): Capability {
  if (capability === undefined) {
    throw new UnsupportedInModeError(managedInOsticketMessage(what, where));
  }
  return capability;
}
