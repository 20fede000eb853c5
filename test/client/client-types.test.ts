import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { z } from 'zod';
import type { LookUps, TopicRecord, UserRecord } from '../../src/client/look-up-types.ts';
import type {
  topicsAllParameters,
  topicsAllResponse,
} from '../../src/operations/topics-all/topics-all.ts';
import type {
  topicsSpecificParameters,
  topicsSpecificResponse,
} from '../../src/operations/topics-specific/topics-specific.ts';
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

/**
 * The client writes its types out instead of importing the server's (it must load and publish
 * nothing of the server). The type checker (`npm run typecheck`, part of `npm test`) compares
 * them here: a field added to, removed from or retyped in an operation's schema breaks this file.
 */
const clientMatchesServer: {
  topic: Same<TopicRecord, TopicView>;
  user: Same<UserRecord, UserView>;
  topicsSpecific: [
    Same<LookUps['topics/specific']['data'], z.output<typeof topicsSpecificResponse>>,
    Same<LookUps['topics/specific']['sorts'], Inputs<typeof topicsSpecificParameters>>,
  ];
  topicsAll: [
    Same<LookUps['topics/all']['data'], z.output<typeof topicsAllResponse>>,
    Same<LookUps['topics/all']['sorts'], Inputs<typeof topicsAllParameters>>,
  ];
  userSpecific: [
    Same<LookUps['user/specific']['data'], z.output<typeof userSpecificResponse>>,
    Same<LookUps['user/specific']['sorts'], Inputs<typeof userSpecificParameters>>,
  ];
  userAll: [
    Same<LookUps['user/all']['data'], z.output<typeof userAllResponse>>,
    Same<LookUps['user/all']['sorts'], Inputs<typeof userAllParameters>>,
  ];
} = {
  topic: true,
  user: true,
  topicsSpecific: [true, true],
  topicsAll: [true, true],
  userSpecific: [true, true],
  userAll: [true, true],
};

test("the client's look-up types are the server's schemas (checked by the type checker)", () => {
  assert.ok(clientMatchesServer.topic);
});
