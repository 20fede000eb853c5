import { UnsupportedInModeError } from '../store.ts';

/** A function osTicket mode does not offer: `what` is managed in osTicket's admin panel. */
export function managedByOsticket(what: string): () => Promise<never> {
  return async () => {
    throw new UnsupportedInModeError(
      `in osTicket mode ${what} are managed in osTicket's admin panel, not by deskgate`,
    );
  };
}
