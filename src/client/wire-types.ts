/*
 * The write operations' fields under the client's names, and the envelope's parts: the fields are
 * the types generated from the registry's schemas (operation-types.ts), so a project that
 * installs the client type-checks these files and nothing of the server's.
 */

import type {
  DepartmentAddParameters,
  SlaAddParameters,
  TicketAddParameters,
  TicketAssignParameters,
  TicketCloseParameters,
  TicketNoteParameters,
  TicketReplyParameters,
  TicketStatusParameters,
  TicketTransferParameters,
  TicketUpdateParameters,
  TopicRecord,
  UserAddParameters,
} from './operation-types.ts';

export type { ErrorCode } from './operation-types.ts';

/** One problem with one parameter, e.g. `{ field: 'parameters.email', message: '…' }`. */
export interface FieldError {
  field: string;
  message: string;
}

/** A help topic as the interface returns it: every value a string. */
export type Topic = TopicRecord;

/** ticket/add's fields: `title` is the subject line, `subject` the message; 0 or absent ids: the help desk chooses. */
export type NewTicketFields = TicketAddParameters;

/** ticket/reply's fields. */
export type TicketReplyFields = TicketReplyParameters;

/** ticket/close's fields; team, department, topic and username are checked against the ticket. */
export type TicketCloseFields = TicketCloseParameters;

/** ticket/note's fields: an internal note (plain text) and its optional title. */
export type TicketNoteFields = TicketNoteParameters;

/** ticket/status's fields: an open or closed status (status/all), optional comments. */
export type TicketStatusFields = TicketStatusParameters;

/** ticket/assign's fields: `agent_id` or `team_id` (0 releases), optional comments. */
export type TicketAssignFields = TicketAssignParameters;

/** ticket/transfer's fields: the department, optional comments. */
export type TicketTransferFields = TicketTransferParameters;

/** ticket/update's fields: one or more of priority, help topic, SLA plan and due date. */
export type TicketUpdateFields = TicketUpdateParameters;

/** The eight fields of user/add; integers may be JSON numbers or digit strings. */
export type NewUserFields = UserAddParameters;

/** department/add's fields (needs admin): plain-text name (no < or >) and signature. */
export type DepartmentAddFields = DepartmentAddParameters;

/** sla/add's fields (needs admin): grace period 1–8760 hours. */
export type SlaAddFields = SlaAddParameters;
