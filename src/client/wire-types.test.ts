import assert from 'node:assert/strict';
import { test } from 'node:test';
import type * as z from 'zod';
import type { ErrorCode as ServerErrorCode, FieldError as ServerFieldError } from '../errors.ts';
import type { TopicView } from '../operations/topics-specific/topics-specific.ts';
import type { userAddParameters } from '../operations/user-add/parameters.ts';
import type { ErrorCode, FieldError, NewUserFields, Topic } from './wire-types.ts';

/** `true` only when A and B are the same type; anything else fails `npm run typecheck`. */
type Same<A, B> =
  (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

const checks: [
  Same<ErrorCode, ServerErrorCode>,
  Same<FieldError, ServerFieldError>,
  Same<Topic, TopicView>,
  Same<NewUserFields, z.input<typeof userAddParameters>>,
] = [true, true, true, true];

test("the client's wire types are the server's own (checked by the type checker)", () => {
  assert.deepEqual(checks, [true, true, true, true]);
});
