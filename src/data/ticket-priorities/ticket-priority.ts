/** A ticket priority (priority/all): osTicket's `ticket_priority`. */
export interface TicketPriority {
  id: number;
  /** What agents and clients see: osTicket's `priority_desc` ("High"), not its key ("high"). */
  name: string;
  /** 1 the most urgent (Emergency), larger less. */
  urgency: number;
}

/** A priority row as both layouts' column maps answer it. */
export interface TicketPriorityRow {
  id: number;
  name: string;
  urgency: number;
}

export function toTicketPriority(row: TicketPriorityRow): TicketPriority {
  return { id: Number(row.id), name: row.name, urgency: Number(row.urgency) };
}
