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
