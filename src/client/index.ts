/** The typed deskgate client: `import { DeskgateClient } from '@deskgate/client'` (packages/client), or `'deskgate/client'` from the server's package. */

export {
  type AddUserOptions,
  type CallOptions,
  DeskgateClient,
  type DeskgateClientOptions,
} from './deskgate-client.ts';
export {
  type ClientErrorCode,
  DeskgateClientError,
  DeskgateClientError as DeskgateError,
} from './deskgate-client-error.ts';
export type {
  DateInput,
  IntegerInput,
  LookUpRequest,
  LookUps,
  UserPage,
  UsersCreatedBetweenOptions,
} from './look-up-types.ts';
// Every generated wire type (records, each operation's parameters and data), so a new operation needs no line here.
export type * from './operation-types.ts';
export {
  type VerifyWebhookOptions,
  verifyWebhook,
  WebhookVerificationError,
} from './verify-webhook.ts';
export type {
  DepartmentAddFields,
  FieldError,
  NewTicketFields,
  NewUserFields,
  SlaAddFields,
  TicketAssignFields,
  TicketCloseFields,
  TicketNoteFields,
  TicketReplyFields,
  TicketStatusFields,
  TicketTransferFields,
  TicketUpdateFields,
  Topic,
} from './wire-types.ts';
