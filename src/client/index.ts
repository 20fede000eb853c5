/** The typed deskgate client: `import { DeskgateClient } from '@deskgate/client'` (packages/client), or `'deskgate/client'` from the server's package. */

export {
  type AddUserOptions,
  type CallOptions,
  DeskgateClient,
  type DeskgateClientOptions,
  type NewUserFields,
  type Topic,
} from './deskgate-client.ts';
export {
  type ClientErrorCode,
  DeskgateClientError,
  DeskgateClientError as DeskgateError,
} from './deskgate-client-error.ts';
export type {
  DateInput,
  DepartmentRecord,
  EventsSinceData,
  EventsSinceParameters,
  FaqCategoryRecord,
  FaqRecord,
  FeedEvent,
  IntegerInput,
  LookUpName,
  LookUpRequest,
  LookUps,
  PriorityRecord,
  SlaRecord,
  StaffRecord,
  StatusRecord,
  TeamRecord,
  TopicRecord,
  UserPage,
  UserRecord,
  UsersCreatedBetweenOptions,
} from './look-up-types.ts';
export type {
  WebhookAddData,
  WebhookAddParameters,
  WebhookDeliveriesData,
  WebhookSpecificData,
  WebhookTestData,
  WebhookUpdateData,
  WebhookUpdateParameters,
} from './operation-types.ts';
export {
  type VerifyWebhookOptions,
  verifyWebhook,
  WebhookVerificationError,
} from './verify-webhook.ts';
export type {
  DepartmentAddFields,
  ErrorCode,
  FieldError,
  NewTicketFields,
  SlaAddFields,
  TicketAssignFields,
  TicketCloseFields,
  TicketNoteFields,
  TicketReplyFields,
  TicketStatusFields,
  TicketTransferFields,
  TicketUpdateFields,
} from './wire-types.ts';
