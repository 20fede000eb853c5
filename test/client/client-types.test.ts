import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { z } from 'zod';
import type { DeskgateClient } from '../../src/client/deskgate-client.ts';
import type {
  LookUpName,
  LookUps,
  TaskRecord,
  TicketRecord,
  TopicRecord,
  UserRecord,
} from '../../src/client/look-up-types.ts';
import type {
  NewTicketFields,
  NewUserFields,
  TicketCloseFields,
  TicketReplyFields,
} from '../../src/client/wire-types.ts';
import { OPERATIONS, type OperationName } from '../../src/operations/registry.ts';
import type { tasksAllParameters } from '../../src/operations/tasks-all/tasks-all.ts';
import type { tasksSpecificParameters } from '../../src/operations/tasks-specific/tasks-specific.ts';
import type { ticketAddParameters } from '../../src/operations/ticket-add/ticket-add.ts';
import type {
  ticketAllParameters,
  ticketAllResponse,
} from '../../src/operations/ticket-all/ticket-all.ts';
import type { ticketCloseParameters } from '../../src/operations/ticket-close/ticket-close.ts';
import type { ticketReplyParameters } from '../../src/operations/ticket-reply/ticket-reply.ts';
import type { ticketSpecificParameters } from '../../src/operations/ticket-specific/ticket-specific.ts';
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
import type { TaskView, TicketView } from '../../src/operations/views/ticket-view.ts';
import type { TopicView } from '../../src/operations/views/topic-view.ts';
import type { UserView } from '../../src/operations/views/user-view.ts';

/** True when A and B are the same type (each assignable to the other). */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

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
  'topics/specific': [true, true] as LookUpChecks<
    'topics/specific',
    typeof topicsSpecificParameters,
    z.output<typeof topicsSpecificResponse>
  >,
  'topics/all': [true, true] as LookUpChecks<
    'topics/all',
    typeof topicsAllParameters,
    z.output<typeof topicsAllResponse>
  >,
  'user/add': [true, true] as [
    Same<NewUserFields, z.input<typeof userAddParameters>>,
    Same<Awaited<ReturnType<DeskgateClient['addUser']>>, string>,
  ],
  'user/specific': [true, true] as LookUpChecks<
    'user/specific',
    typeof userSpecificParameters,
    z.output<typeof userSpecificResponse>
  >,
  'user/all': [true, true] as LookUpChecks<
    'user/all',
    typeof userAllParameters,
    z.output<typeof userAllResponse>
  >,
  'ticket/all': [true, true] as LookUpChecks<
    'ticket/all',
    typeof ticketAllParameters,
    z.output<typeof ticketAllResponse>
  >,
  'ticket/specific': [true, true] as [
    Same<LookUps['ticket/specific']['data'], { total: 1; tickets: TicketView[] }>,
    Same<LookUps['ticket/specific']['sorts'], { '*': z.input<typeof ticketSpecificParameters> }>,
  ],
  'ticket/add': [true, true] as [
    Same<NewTicketFields, z.input<typeof ticketAddParameters>>,
    Same<Awaited<ReturnType<DeskgateClient['addTicket']>>['id'], string>,
  ],
  'ticket/reply': [true] as [Same<TicketReplyFields, z.input<typeof ticketReplyParameters>>],
  'ticket/close': [true] as [Same<TicketCloseFields, z.input<typeof ticketCloseParameters>>],
  'tasks/all': [true, true] as [
    Same<LookUps['tasks/all']['data'], { total: number; tasks: TaskView[]; next?: string }>,
    Same<LookUps['tasks/all']['sorts'], Inputs<typeof tasksAllParameters>>,
  ],
  'tasks/specific': [true, true] as [
    Same<LookUps['tasks/specific']['data'], { total: 1; tasks: TaskView[] }>,
    Same<LookUps['tasks/specific']['sorts'], { '*': z.input<typeof tasksSpecificParameters> }>,
  ],
} satisfies Record<OperationName, readonly true[]>;

const recordsMatchViews: [
  Same<TopicRecord, TopicView>,
  Same<UserRecord, UserView>,
  Same<TicketRecord, TicketView>,
  Same<TaskRecord, TaskView>,
] = [true, true, true, true];

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
  'tasks/all': ['tasks', 'lookUp'],
  'tasks/specific': ['taskById', 'lookUp'],
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
} as const satisfies Record<LookUpName, true>;

test("the client's types are the server's schemas, for every operation of the registry", () => {
  assert.deepEqual(Object.keys(clientMatchesServer).sort(), Object.keys(OPERATIONS).sort());
  for (const checks of Object.values(clientMatchesServer)) {
    assert.ok(checks.every((check) => check === true));
  }
  assert.deepEqual(recordsMatchViews, [true, true, true, true]);
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
