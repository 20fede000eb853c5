import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { z } from 'zod';
import type { DeskgateClient } from '../../src/client/deskgate-client.ts';
import type {
  LookUpName,
  LookUps,
  TopicRecord,
  UserRecord,
} from '../../src/client/look-up-types.ts';
import type { NewUserFields } from '../../src/client/wire-types.ts';
import { OPERATIONS, type OperationName } from '../../src/operations/registry.ts';
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
} satisfies Record<OperationName, readonly true[]>;

const recordsMatchViews: [Same<TopicRecord, TopicView>, Same<UserRecord, UserView>] = [true, true];

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
} as const satisfies Record<LookUpName, true>;

test("the client's types are the server's schemas, for every operation of the registry", () => {
  assert.deepEqual(Object.keys(clientMatchesServer).sort(), Object.keys(OPERATIONS).sort());
  for (const checks of Object.values(clientMatchesServer)) {
    assert.ok(checks.every((check) => check === true));
  }
  assert.deepEqual(recordsMatchViews, [true, true]);
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
