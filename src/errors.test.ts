import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DeskgateError } from './errors.ts';

test("a caller's mistake (4xx) carries no stack trace; a server-side failure keeps its own", () => {
  const limit = Error.stackTraceLimit;
  const refused = new DeskgateError('invalid_api_key', 'The API key is not valid.');
  assert.equal(refused.stack?.split('\n').length, 1, refused.stack);
  const failed = new DeskgateError('internal_error', 'Something went wrong.');
  assert.match(failed.stack ?? '', /\n\s+at /);
  // The limit is put back for every other error.
  assert.equal(Error.stackTraceLimit, limit);
  assert.match(new Error('plain').stack ?? '', /\n\s+at /);
});
