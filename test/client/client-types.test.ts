import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { z } from 'zod';
import type { DeskgateClient } from '../../src/client/deskgate-client.ts';
import type { LookUps } from '../../src/client/look-up-types.ts';
import type {
  LookUpName,
  Operations,
  TaskRecord,
  TicketRecord,
  TopicRecord,
  UserRecord,
} from '../../src/client/operation-types.ts';
import type {
  DepartmentAddFields,
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
} from '../../src/client/wire-types.ts';
import type { FeedEvent } from '../../src/data/events/event.ts';
import type { departmentAddParameters } from '../../src/operations/department-add/department-add.ts';
import type { departmentAllParameters } from '../../src/operations/department-all/department-all.ts';
import type { departmentSpecificParameters } from '../../src/operations/department-specific/department-specific.ts';
import type { eventsSinceParameters } from '../../src/operations/events-since/events-since.ts';
import type { faqSpecificParameters } from '../../src/operations/faq-specific/faq-specific.ts';
import type { priorityViewSchema } from '../../src/operations/priority-all/priority-all.ts';
import { OPERATIONS, type OperationName } from '../../src/operations/registry.ts';
import type { slaAddParameters } from '../../src/operations/sla-add/sla-add.ts';
import type { slaAllParameters } from '../../src/operations/sla-all/sla-all.ts';
import type { slaSpecificParameters } from '../../src/operations/sla-specific/sla-specific.ts';
import type {
  staffAllParameters,
  staffViewSchema,
} from '../../src/operations/staff-all/staff-all.ts';
import type { statusViewSchema } from '../../src/operations/status-all/status-all.ts';
import type { tasksAllParameters } from '../../src/operations/tasks-all/tasks-all.ts';
import type { tasksSpecificParameters } from '../../src/operations/tasks-specific/tasks-specific.ts';
import type { teamViewSchema } from '../../src/operations/team-all/team-all.ts';
import type { ticketAddParameters } from '../../src/operations/ticket-add/ticket-add.ts';
import type {
  ticketAllParameters,
  ticketAllResponse,
} from '../../src/operations/ticket-all/ticket-all.ts';
import type { ticketAssignParameters } from '../../src/operations/ticket-assign/ticket-assign.ts';
import type { ticketCloseParameters } from '../../src/operations/ticket-close/ticket-close.ts';
import type { ticketNoteParameters } from '../../src/operations/ticket-note/ticket-note.ts';
import type { ticketReplyParameters } from '../../src/operations/ticket-reply/ticket-reply.ts';
import type { ticketSpecificParameters } from '../../src/operations/ticket-specific/ticket-specific.ts';
import type { ticketStatusParameters } from '../../src/operations/ticket-status/ticket-status.ts';
import type { ticketTransferParameters } from '../../src/operations/ticket-transfer/ticket-transfer.ts';
import type { ticketUpdateParameters } from '../../src/operations/ticket-update/ticket-update.ts';
import type {
  topicsAllParameters,
  topicsAllResponse,
} from '../../src/operations/topics-all/topics-all.ts';
import type {
  topicsSpecificParameters,
  topicsSpecificResponse,
} from '../../src/operations/topics-specific/topics-specific.ts';
import type { userAddParameters } from '../../src/operations/user-add/parameters.ts';
import type { userAllParameters, userAllResponse } from '../../src/operations/user-all/user-all.ts';
import type {
  userSpecificParameters,
  userSpecificResponse,
} from '../../src/operations/user-specific/user-specific.ts';
import type {
  DepartmentView,
  FaqCategoryView,
  FaqView,
  SlaView,
} from '../../src/operations/views/catalogue-view.ts';
import type { TaskView, TicketView } from '../../src/operations/views/ticket-view.ts';
import type { TopicView } from '../../src/operations/views/topic-view.ts';
import type { UserView } from '../../src/operations/views/user-view.ts';
import type {
  webhookAddParameters,
  webhookAddResponse,
} from '../../src/operations/webhook-add/webhook-add.ts';
import type {
  webhookAllParameters,
  webhookAllResponse,
} from '../../src/operations/webhook-all/webhook-all.ts';
import type {
  webhookDeleteParameters,
  webhookDeleteResponse,
} from '../../src/operations/webhook-delete/webhook-delete.ts';
import type {
  webhookDeliveriesParameters,
  webhookDeliveriesResponse,
} from '../../src/operations/webhook-deliveries/webhook-deliveries.ts';
import type {
  webhookRedeliverParameters,
  webhookRedeliverResponse,
} from '../../src/operations/webhook-redeliver/webhook-redeliver.ts';
import type {
  webhookSpecificParameters,
  webhookSpecificResponse,
} from '../../src/operations/webhook-specific/webhook-specific.ts';
import type {
  webhookTestParameters,
  webhookTestResponse,
} from '../../src/operations/webhook-test/webhook-test.ts';
import type {
  webhookUpdateParameters,
  webhookUpdateResponse,
} from '../../src/operations/webhook-update/webhook-update.ts';
import { ROOT } from '../helpers/paths.ts';

type StatusView = z.output<typeof statusViewSchema>;
type PriorityView = z.output<typeof priorityViewSchema>;
type StaffView = z.output<typeof staffViewSchema>;
type TeamView = z.output<typeof teamViewSchema>;

/** True when A and B are the same type (each assignable to the other). */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/**
 * Compiles only when every check of `Checks` is true: a false one fails `npm run typecheck`, and
 * there is no value to cast into place.
 */
function checks<_Checks extends readonly true[]>(): readonly true[] {
  return [];
}

type Inputs<Sets extends Record<string, z.ZodType>> = { [Sort in keyof Sets]: z.input<Sets[Sort]> };

type LookUpChecks<Name extends LookUpName, Sets extends Record<string, z.ZodType>, Response> = [
  Same<LookUps[Name]['data'], Response>,
  Same<LookUps[Name]['sorts'], Inputs<Sets>>,
];

/**
 * The client writes its types out instead of importing the server's (it must load and publish
 * nothing of the server). The type checker (`npm run typecheck`, part of `npm test`) compares
 * them here, one entry per operation of the registry: a field added to, removed from or retyped
 * in an operation's schema breaks this file, and so does an operation of the registry that has
 * no entry (`satisfies Record<OperationName, …>`).
 */
const clientMatchesServer = {
  'topics/specific':
    checks<
      LookUpChecks<
        'topics/specific',
        typeof topicsSpecificParameters,
        z.output<typeof topicsSpecificResponse>
      >
    >(),
  'topics/all':
    checks<
      LookUpChecks<'topics/all', typeof topicsAllParameters, z.output<typeof topicsAllResponse>>
    >(),
  'user/add':
    checks<
      [
        Same<NewUserFields, z.input<typeof userAddParameters>>,
        Same<Awaited<ReturnType<DeskgateClient['addUser']>>, string>,
      ]
    >(),
  'user/specific':
    checks<
      LookUpChecks<
        'user/specific',
        typeof userSpecificParameters,
        z.output<typeof userSpecificResponse>
      >
    >(),
  'user/all':
    checks<LookUpChecks<'user/all', typeof userAllParameters, z.output<typeof userAllResponse>>>(),
  'ticket/all':
    checks<
      LookUpChecks<'ticket/all', typeof ticketAllParameters, z.output<typeof ticketAllResponse>>
    >(),
  'ticket/specific':
    checks<
      [
        Same<LookUps['ticket/specific']['data'], { total: 1; tickets: TicketView[] }>,
        Same<
          LookUps['ticket/specific']['sorts'],
          { '*': z.input<typeof ticketSpecificParameters> }
        >,
      ]
    >(),
  'ticket/add':
    checks<
      [
        Same<NewTicketFields, z.input<typeof ticketAddParameters>>,
        Same<Awaited<ReturnType<DeskgateClient['addTicket']>>['id'], string>,
      ]
    >(),
  'ticket/reply': checks<[Same<TicketReplyFields, z.input<typeof ticketReplyParameters>>]>(),
  'ticket/close': checks<[Same<TicketCloseFields, z.input<typeof ticketCloseParameters>>]>(),
  'ticket/note': checks<[Same<TicketNoteFields, z.input<typeof ticketNoteParameters>>]>(),
  'ticket/status': checks<[Same<TicketStatusFields, z.input<typeof ticketStatusParameters>>]>(),
  'ticket/assign': checks<[Same<TicketAssignFields, z.input<typeof ticketAssignParameters>>]>(),
  'ticket/transfer':
    checks<[Same<TicketTransferFields, z.input<typeof ticketTransferParameters>>]>(),
  'ticket/update': checks<[Same<TicketUpdateFields, z.input<typeof ticketUpdateParameters>>]>(),
  'tasks/all':
    checks<
      [
        Same<LookUps['tasks/all']['data'], { total: number; tasks: TaskView[]; next?: string }>,
        Same<LookUps['tasks/all']['sorts'], Inputs<typeof tasksAllParameters>>,
      ]
    >(),
  'tasks/specific':
    checks<
      [
        Same<LookUps['tasks/specific']['data'], { total: 1; tasks: TaskView[] }>,
        Same<LookUps['tasks/specific']['sorts'], { '*': z.input<typeof tasksSpecificParameters> }>,
      ]
    >(),
  'department/all':
    checks<
      [
        Same<
          LookUps['department/all']['data'],
          { total: number; departments: DepartmentView[]; next?: string }
        >,
        Same<LookUps['department/all']['sorts'], Inputs<typeof departmentAllParameters>>,
      ]
    >(),
  'department/specific':
    checks<
      [
        Same<LookUps['department/specific']['data'], { total: 1; departments: DepartmentView[] }>,
        Same<
          LookUps['department/specific']['sorts'],
          { '*': z.input<typeof departmentSpecificParameters> }
        >,
      ]
    >(),
  'department/add': checks<[Same<DepartmentAddFields, z.input<typeof departmentAddParameters>>]>(),
  'faq/all':
    checks<[Same<LookUps['faq/all']['data'], { total: number; categories: FaqCategoryView[] }>]>(),
  'faq/specific':
    checks<
      [
        Same<LookUps['faq/specific']['data'], { total: number; faq: FaqView[]; next?: string }>,
        Same<LookUps['faq/specific']['sorts'], { '*': z.input<typeof faqSpecificParameters> }>,
      ]
    >(),
  'sla/all':
    checks<
      [
        Same<LookUps['sla/all']['data'], { total: number; sla: SlaView[]; next?: string }>,
        Same<LookUps['sla/all']['sorts'], Inputs<typeof slaAllParameters>>,
      ]
    >(),
  'sla/specific':
    checks<
      [
        Same<LookUps['sla/specific']['data'], { total: 1; sla: SlaView[] }>,
        Same<LookUps['sla/specific']['sorts'], { '*': z.input<typeof slaSpecificParameters> }>,
      ]
    >(),
  'sla/add': checks<[Same<SlaAddFields, z.input<typeof slaAddParameters>>]>(),
  'sla/delete':
    checks<[Same<Awaited<ReturnType<DeskgateClient['deleteSlaPlan']>>, string | null>]>(),
  'status/all':
    checks<
      [
        Same<LookUps['status/all']['data'], { total: number; statuses: StatusView[] }>,
        Same<LookUps['status/all']['sorts'], { '*': Record<string, never> }>,
      ]
    >(),
  'priority/all':
    checks<
      [
        Same<LookUps['priority/all']['data'], { total: number; priorities: PriorityView[] }>,
        Same<LookUps['priority/all']['sorts'], { '*': Record<string, never> }>,
      ]
    >(),
  'staff/all':
    checks<
      [
        Same<LookUps['staff/all']['data'], { total: number; staff: StaffView[] }>,
        Same<LookUps['staff/all']['sorts'], Inputs<typeof staffAllParameters>>,
      ]
    >(),
  'team/all':
    checks<
      [
        Same<LookUps['team/all']['data'], { total: number; teams: TeamView[] }>,
        Same<LookUps['team/all']['sorts'], { '*': Record<string, never> }>,
      ]
    >(),
  'webhook/add':
    checks<
      [
        Same<Operations['webhook/add']['sorts'], { '*': z.input<typeof webhookAddParameters> }>,
        Same<Operations['webhook/add']['data'], z.output<typeof webhookAddResponse>>,
      ]
    >(),
  'webhook/all':
    checks<
      [
        Same<Operations['webhook/all']['sorts'], { '*': z.input<typeof webhookAllParameters> }>,
        Same<Operations['webhook/all']['data'], z.output<typeof webhookAllResponse>>,
      ]
    >(),
  'webhook/specific':
    checks<
      [
        Same<
          Operations['webhook/specific']['sorts'],
          { '*': z.input<typeof webhookSpecificParameters> }
        >,
        Same<Operations['webhook/specific']['data'], z.output<typeof webhookSpecificResponse>>,
      ]
    >(),
  'webhook/update':
    checks<
      [
        Same<
          Operations['webhook/update']['sorts'],
          { '*': z.input<typeof webhookUpdateParameters> }
        >,
        Same<Operations['webhook/update']['data'], z.output<typeof webhookUpdateResponse>>,
      ]
    >(),
  'webhook/delete':
    checks<
      [
        Same<
          Operations['webhook/delete']['sorts'],
          { '*': z.input<typeof webhookDeleteParameters> }
        >,
        Same<Operations['webhook/delete']['data'], z.output<typeof webhookDeleteResponse>>,
      ]
    >(),
  'webhook/test':
    checks<
      [
        Same<Operations['webhook/test']['sorts'], { '*': z.input<typeof webhookTestParameters> }>,
        Same<Operations['webhook/test']['data'], z.output<typeof webhookTestResponse>>,
      ]
    >(),
  'webhook/deliveries':
    checks<
      [
        Same<
          Operations['webhook/deliveries']['sorts'],
          { '*': z.input<typeof webhookDeliveriesParameters> }
        >,
        Same<Operations['webhook/deliveries']['data'], z.output<typeof webhookDeliveriesResponse>>,
      ]
    >(),
  'webhook/redeliver':
    checks<
      [
        Same<
          Operations['webhook/redeliver']['sorts'],
          { '*': z.input<typeof webhookRedeliverParameters> }
        >,
        Same<Operations['webhook/redeliver']['data'], z.output<typeof webhookRedeliverResponse>>,
      ]
    >(),
  'events/since':
    checks<
      [
        Same<
          LookUps['events/since']['data'],
          { events: FeedEvent[]; next: string; end_of_stream: boolean }
        >,
        Same<LookUps['events/since']['sorts'], Inputs<{ '*': typeof eventsSinceParameters }>>,
      ]
    >(),
} satisfies Record<OperationName, readonly true[]>;

const recordsMatchViews =
  checks<
    [
      Same<TopicRecord, TopicView>,
      Same<UserRecord, UserView>,
      Same<TicketRecord, TicketView>,
      Same<TaskRecord, TaskView>,
    ]
  >();

/**
 * The client's methods of each operation of the registry. An operation without a client method
 * fails the type check (a missing key, or a name that is not a method of DeskgateClient).
 */
const CLIENT_METHODS = {
  'topics/specific': ['getTopic', 'topicByName', 'lookUp'],
  'topics/all': ['topicsAll', 'lookUp'],
  'user/add': ['addUser'],
  'user/specific': ['userById', 'userByEmail', 'lookUp'],
  'user/all': ['usersCreatedBetween', 'eachUserCreatedBetween', 'lookUp'],
  'ticket/all': ['tickets', 'lookUp'],
  'ticket/specific': ['ticketById', 'ticketByNumber', 'lookUp'],
  'ticket/add': ['addTicket'],
  'ticket/reply': ['replyToTicket'],
  'ticket/close': ['closeTicket'],
  'ticket/note': ['noteOnTicket'],
  'ticket/status': ['setTicketStatus'],
  'ticket/assign': ['assignTicket'],
  'ticket/transfer': ['transferTicket'],
  'ticket/update': ['updateTicket'],
  'tasks/all': ['tasks', 'lookUp'],
  'tasks/specific': ['taskById', 'lookUp'],
  'department/all': ['departments', 'lookUp'],
  'department/specific': ['departmentById', 'lookUp'],
  'department/add': ['addDepartment'],
  'faq/all': ['faqTree', 'lookUp'],
  'faq/specific': ['faqsOfCategory', 'lookUp'],
  'sla/all': ['slaPlans', 'lookUp'],
  'sla/specific': ['slaById', 'lookUp'],
  'sla/add': ['addSlaPlan'],
  'sla/delete': ['deleteSlaPlan'],
  'status/all': ['ticketStatuses', 'lookUp'],
  'priority/all': ['ticketPriorities', 'lookUp'],
  'staff/all': ['agents', 'lookUp'],
  'team/all': ['teams', 'lookUp'],
  'webhook/add': ['addWebhook'],
  'webhook/all': ['webhooks', 'lookUp'],
  'webhook/specific': ['webhookById', 'lookUp'],
  'webhook/update': ['updateWebhook'],
  'webhook/delete': ['deleteWebhook'],
  'webhook/test': ['testWebhook'],
  'webhook/deliveries': ['webhookDeliveries', 'lookUp'],
  'webhook/redeliver': ['redeliverWebhook'],
  'events/since': ['eventsSince', 'lookUp'],
} as const satisfies Record<
  OperationName,
  readonly [keyof DeskgateClient, ...(keyof DeskgateClient)[]]
>;

/** The operations `DeskgateClient.lookUp` types: exactly the keys of `LookUps`. */
const LOOK_UPS = {
  'topics/specific': true,
  'topics/all': true,
  'user/specific': true,
  'user/all': true,
  'ticket/all': true,
  'ticket/specific': true,
  'tasks/all': true,
  'tasks/specific': true,
  'department/all': true,
  'department/specific': true,
  'faq/all': true,
  'faq/specific': true,
  'sla/all': true,
  'sla/specific': true,
  'status/all': true,
  'priority/all': true,
  'staff/all': true,
  'team/all': true,
  'webhook/all': true,
  'webhook/specific': true,
  'webhook/deliveries': true,
  'events/since': true,
} as const satisfies Record<LookUpName, true>;

// Issue 33, item 6: the client's types are generated from the registry's schemas; a schema changed
// without regenerating them fails here (and, where the types differ, the checks above).
test('src/client/operation-types.ts is what scripts/generate-client-types.ts makes of the registry now', async () => {
  const { CLIENT_TYPES_FILE, clientTypesSource } = await import(
    '../../scripts/generate-client-types.ts'
  );
  assert.equal(
    readFileSync(CLIENT_TYPES_FILE, 'utf8'),
    await clientTypesSource(),
    'the generated client types are stale: run npm run generate:client',
  );
});

test("the client's types are the server's schemas, for every operation of the registry", () => {
  assert.deepEqual(Object.keys(clientMatchesServer).sort(), Object.keys(OPERATIONS).sort());
  for (const checks of Object.values(clientMatchesServer)) {
    assert.ok(checks.every((check) => check === true));
  }
  assert.deepEqual(recordsMatchViews, []);
});

// Issue 37, item 13: docs/integrating.md listed the topic and user methods only.
test('docs/integrating.md names every method of the client', async () => {
  const { DeskgateClient: Client } = await import('../../src/client/deskgate-client.ts');
  const page = readFileSync(join(ROOT, 'docs', 'integrating.md'), 'utf8');
  const methods = Object.getOwnPropertyNames(Client.prototype).filter((m) => m !== 'constructor');
  assert.deepEqual(
    methods.filter((method) => !page.includes(`\`${method}(`)),
    [],
  );
});

test('every operation of the registry has client methods, and lookUp types every look-up', async () => {
  const { DeskgateClient: Client } = await import('../../src/client/deskgate-client.ts');
  assert.deepEqual(Object.keys(CLIENT_METHODS).sort(), Object.keys(OPERATIONS).sort());
  for (const [name, methods] of Object.entries(CLIENT_METHODS)) {
    for (const method of methods) {
      assert.equal(typeof Client.prototype[method], 'function', `${name}: ${method}`);
    }
  }
  const lookUps = Object.values(OPERATIONS)
    .filter((operation) => operation.methods[0] === 'GET')
    .map((operation) => operation.name);
  assert.deepEqual(Object.keys(LOOK_UPS).sort(), lookUps.sort());
});
