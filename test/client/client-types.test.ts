import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type * as z from 'zod';
import type { DeskgateClient } from '../../src/client/deskgate-client.ts';
import type { LookUpRequest, LookUps, OperationRequest } from '../../src/client/look-up-types.ts';
import type {
  LookUpName,
  Operations,
  TaskRecord,
  TicketRecord,
  TopicRecord,
  UserRecord,
} from '../../src/client/operation-types.ts';
import type * as Wire from '../../src/client/wire-types.ts';
import { OPERATIONS, type OperationName } from '../../src/operations/registry.ts';
import type { TaskView, TicketView } from '../../src/operations/views/ticket-view.ts';
import type { TopicView } from '../../src/operations/views/topic-view.ts';
import type { UserView } from '../../src/operations/views/user-view.ts';
import { ROOT } from '../helpers/paths.ts';

/** True when A and B are the same type (each assignable to the other). */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/**
 * Compiles only when every check of `Checks` is true: a false one fails `npm run typecheck`, and
 * there is no value to cast into place.
 */
function checks<_Checks extends readonly true[]>(): readonly true[] {
  return [];
}

type Registry = typeof OPERATIONS;

/** What the server takes: each `sort` value's parameters, as a caller sends them. */
type ServerSorts<Name extends OperationName> = {
  [Sort in keyof Registry[Name]['parameterSets']]: z.input<Registry[Name]['parameterSets'][Sort]>;
};

/** What the server answers: its response schema's output. */
type ServerData<Name extends OperationName> = z.output<Registry[Name]['response']>;

/** The operations whose generated client types are not the server's schemas (none, or a type error). */
type Mismatched = {
  [Name in OperationName]: [
    Same<Operations[Name]['sorts'], ServerSorts<Name>>,
    Same<Operations[Name]['data'], ServerData<Name>>,
  ] extends [true, true]
    ? never
    : Name;
}[OperationName];

/**
 * The client writes its types out instead of importing the server's (it must load and publish
 * nothing of the server). The type checker (`npm run typecheck`, part of `npm test`) compares
 * them here over every operation of the registry, read from the registry itself (mapped types,
 * no operation named): a field added to, removed from or retyped in an operation's schema breaks
 * this file, and so does an operation the generated `Operations` lacks or has extra.
 * `DeskgateClient.call` takes exactly the names of `Operations` and each one's request and data,
 * so it calls every operation of the registry, a new one included, with no edit to the client.
 */
const clientMatchesServer =
  checks<
    [
      Same<Mismatched, never>,
      Same<keyof Operations, OperationName>,
      Same<Parameters<DeskgateClient['call']>[0], OperationName>,
      Same<keyof LookUps, LookUpName>,
      Same<Parameters<DeskgateClient['lookUp']>[0], LookUpName>,
      Same<LookUpRequest<'user/all'>, OperationRequest<'user/all'>>,
    ]
  >();

const recordsMatchViews =
  checks<
    [
      Same<TopicRecord, TopicView>,
      Same<UserRecord, UserView>,
      Same<TicketRecord, TicketView>,
      Same<TaskRecord, TaskView>,
    ]
  >();

/** The first argument of a named method: what it sends as `parameters`. */
type FieldsOf<Method extends keyof DeskgateClient> = DeskgateClient[Method] extends (
  fields: infer Fields,
  ...rest: never[]
) => unknown
  ? Fields
  : never;

/**
 * The named convenience methods that take an operation's parameters whole, against the generated
 * types (which the checks above tie to the server). Not every operation has one: `call` covers
 * those, so a new operation needs no line here.
 */
const namedMethodsMatch =
  checks<
    [
      Same<FieldsOf<'addUser'>, Operations['user/add']['sorts']['*']>,
      Same<FieldsOf<'addTicket'>, Operations['ticket/add']['sorts']['*']>,
      Same<FieldsOf<'replyToTicket'>, Operations['ticket/reply']['sorts']['*']>,
      Same<FieldsOf<'closeTicket'>, Operations['ticket/close']['sorts']['*']>,
      Same<FieldsOf<'noteOnTicket'>, Operations['ticket/note']['sorts']['*']>,
      Same<FieldsOf<'setTicketStatus'>, Operations['ticket/status']['sorts']['*']>,
      Same<FieldsOf<'assignTicket'>, Operations['ticket/assign']['sorts']['*']>,
      Same<FieldsOf<'transferTicket'>, Operations['ticket/transfer']['sorts']['*']>,
      Same<FieldsOf<'updateTicket'>, Operations['ticket/update']['sorts']['*']>,
      Same<FieldsOf<'addDepartment'>, Operations['department/add']['sorts']['*']>,
      Same<FieldsOf<'addSlaPlan'>, Operations['sla/add']['sorts']['*']>,
      Same<FieldsOf<'addWebhook'>, Operations['webhook/add']['sorts']['*']>,
      Same<FieldsOf<'updateWebhook'>, Operations['webhook/update']['sorts']['*']>,
      Same<Wire.Topic, TopicRecord>,
      Same<Awaited<ReturnType<DeskgateClient['addUser']>>, string>,
      Same<Awaited<ReturnType<DeskgateClient['addTicket']>>['id'], string>,
      Same<Awaited<ReturnType<DeskgateClient['deleteSlaPlan']>>, string | null>,
      Same<Awaited<ReturnType<DeskgateClient['addWebhook']>>, Operations['webhook/add']['data']>,
    ]
  >();

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
  // The checks are the type checker's; at run time they are empty arrays.
  assert.deepEqual([clientMatchesServer, recordsMatchViews, namedMethodsMatch], [[], [], []]);
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

test('DeskgateClient.call sends every operation of the registry, look-ups as GET', async () => {
  const { OPERATION_CALLS } = await import('../../src/client/operation-types.ts');
  assert.deepEqual(
    OPERATION_CALLS,
    Object.fromEntries(
      Object.values(OPERATIONS).map((operation) => [
        operation.name,
        {
          method: operation.methods[0] === 'GET' ? 'GET' : 'POST',
          idempotencyKey: operation.idempotencyKey,
        },
      ]),
    ),
  );
  for (const operation of Object.values(OPERATIONS)) {
    if (operation.methods[0] !== 'GET')
      assert.ok(operation.methods.includes('POST'), operation.name);
  }
});
