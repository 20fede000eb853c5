/** A ticket status an agent can set (status/all): osTicket's `ticket_status`. */
export interface TicketStatus {
  id: number;
  name: string;
  /** `open` or `closed`: the states the staff panel offers (decision 400). */
  state: string;
}

/** A status row as both layouts' column maps answer it. */
export interface TicketStatusRow {
  id: number;
  name: string;
  state: string;
  sort: number;
}

export function toTicketStatus(row: TicketStatusRow): TicketStatus {
  return { id: Number(row.id), name: row.name, state: row.state };
}

/** The states a status change sets; archived and deleted are reached by other actions. */
export const SETTABLE_STATES = ['open', 'closed'];
