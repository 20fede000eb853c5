import { defineEntity } from '../entity.ts';
import { UnsupportedInModeError } from '../store.ts';
import {
  makeOsticketTicketInputs,
  OSTICKET_TICKET_INPUT_TABLES,
} from './osticket-ticket-inputs.ts';

/** The user as osTicket's API takes one: by e-mail, with a name. */
export interface TicketContact {
  email: string;
  name: string;
}

/** What osTicket itself would choose for a ticket of a help topic (0: none). */
export interface HelpDeskChoices {
  topicId: number;
  deptId: number;
  slaId: number;
  statusId: number;
}

/**
 * What deskgate reads before it hands a ticket write to osTicket's own code (decision 240):
 * osTicket mode only; deskgate's own schema chooses inside its own ticket writes.
 */
export interface TicketInputData {
  contactOf(userId: number): Promise<TicketContact | undefined>;
  /** osTicket's choices for `topicId` (0: its default topic); undefined for an unknown topic. */
  choicesFor(topicId: number): Promise<HelpDeskChoices | undefined>;
  priorityExists(priorityId: number): Promise<boolean>;
  agentUsername(staffId: number): Promise<string | undefined>;
  /** The ticket osTicket answered `number` for (no unique index on it: the newest of the user's). */
  ticketIdByNumber(number: string, userId: number): Promise<number | undefined>;
  /** The user's tickets created in the last `seconds` seconds of the database's clock. */
  recentTicketIds(userId: number, seconds: number): Promise<number[]>;
  /**
   * The entries of `type` (R, N) the agent posted on the ticket in the last `seconds` seconds of
   * the database's clock (osTicket's rows carry it), oldest first: what a lost call posted.
   */
  recentEntryIds(
    ticketId: number,
    staffId: number,
    type: 'R' | 'N',
    seconds: number,
  ): Promise<number[]>;
}

function osticketOnly(): Promise<never> {
  return Promise.reject(
    new UnsupportedInModeError("deskgate's own schema chooses inside its ticket writes"),
  );
}

export const ticketInputs = defineEntity<TicketInputData>({
  name: 'ticketInputs',
  own: () => ({
    contactOf: osticketOnly,
    choicesFor: osticketOnly,
    priorityExists: osticketOnly,
    agentUsername: osticketOnly,
    ticketIdByNumber: osticketOnly,
    recentTicketIds: osticketOnly,
    recentEntryIds: osticketOnly,
  }),
  osticket: makeOsticketTicketInputs,
  osticketRequires: {
    comment:
      "ticket writes: read what osTicket's API needs and would choose (the writes are osTicket's own code's)",
    tables: OSTICKET_TICKET_INPUT_TABLES,
  },
});
