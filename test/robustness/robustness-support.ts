import assert from 'node:assert/strict';
import type { Reply } from '../helpers/http.ts';
import type { StartedServer } from '../helpers/server.ts';

/** DESKGATE_LONG_TESTS=1 runs the long variants: more generated cases, more crash rounds. */
export const LONG = process.env.DESKGATE_LONG_TESTS === '1';

/** fast-check runs per property: a few seconds by default, minutes in the long variant. */
export const NUM_RUNS = LONG ? 2_000 : 150;

/**
 * The error codes a caller may see and their statuses, written out again on purpose: an oracle
 * independent of src/errors.ts, so a changed status there fails here. Anything else is broken.
 */
const STATUS_OF_CODE: Record<string, number> = {
  invalid_json: 400,
  invalid_request: 400,
  unknown_operation: 400,
  invalid_parameters: 400,
  missing_api_key: 401,
  invalid_api_key: 401,
  insufficient_scope: 403,
  ip_not_allowed: 403,
  not_found: 404,
  method_not_allowed: 405,
  duplicate_email: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  idempotency_mismatch: 422,
  too_many_requests: 429,
  overloaded: 503,
};

/**
 * The reply is never a 5xx, and is either a success (200 envelope, or 204 with X-Error-Code) or a
 * well-formed error envelope whose code matches its status.
 */
export function assertWellFormed(
  reply: { status: number; headers: Reply['headers']; text: string },
  options: { allowOverloaded?: boolean } = {},
): void {
  const context = `${reply.status} ${reply.text.slice(0, 500)}`;
  // Under a deliberate flood, 503 overloaded is the one 5xx that is the right answer.
  const shed =
    options.allowOverloaded === true &&
    reply.status === 503 &&
    reply.text.includes('"code":"overloaded"');
  assert.ok(reply.status < 500 || shed, `a 5xx: ${context}`);
  if (reply.status === 204) {
    assert.equal(reply.text, '', context);
    assert.equal(reply.headers['x-error-code'], 'not_found', context);
    return;
  }
  assert.equal(reply.headers['content-type'], 'application/json; charset=utf-8', context);
  assert.ok(reply.headers['x-request-id'], `no X-Request-Id: ${context}`);
  const body = JSON.parse(reply.text) as Record<string, unknown>;
  assert.equal(typeof body.time, 'number', context);
  assert.ok(Number.isFinite(body.time) && (body.time as number) >= 0, context);
  if (reply.status === 200) {
    assert.equal(body.status, 'Success', context);
    return;
  }
  assert.equal(body.status, 'Error', context);
  assert.equal(typeof body.data, 'string', context);
  assert.ok((body.data as string).length > 0, context);
  assert.equal(typeof body.code, 'string', context);
  assert.equal(
    STATUS_OF_CODE[body.code as string],
    reply.status,
    `code/status mismatch: ${context}`,
  );
  if (body.errors !== undefined) {
    assert.ok(Array.isArray(body.errors), context);
    for (const e of body.errors as { field: unknown; message: unknown }[]) {
      assert.equal(typeof e.field, 'string', context);
      assert.equal(typeof e.message, 'string', context);
    }
  }
}

/**
 * What the server wrote is one JSON object per line (a log line cannot be split or forged by
 * input), and holds none of `secrets`: not as sent, lower-cased, nor base64/hex of their bytes.
 */
export function assertCleanLog(
  server: { output: readonly string[] },
  secrets: readonly string[],
): void {
  assert.ok(server.output.length > 0, 'the server wrote nothing');
  for (const line of server.output) {
    let record: unknown;
    assert.doesNotThrow(
      () => {
        record = JSON.parse(line);
      },
      `not a JSON log line: ${line.slice(0, 300)}`,
    );
    assert.ok(typeof record === 'object' && record !== null && !Array.isArray(record), line);
  }
  const text = server.output.join('\n');
  for (const secret of secrets) {
    const bytes = Buffer.from(secret);
    for (const form of [
      secret,
      secret.toLowerCase(),
      bytes.toString('base64'),
      bytes.toString('hex'),
    ]) {
      assert.equal(
        text.includes(form),
        false,
        `the log contains the secret ${JSON.stringify(secret)}`,
      );
    }
  }
}

/**
 * The server is still running: a child process has not exited; an in-process server still
 * listens (a crash there would have failed the test with the uncaught error already).
 */
export function assertAlive(server: StartedServer | { listening: boolean }): void {
  if (!('process' in server)) {
    assert.equal(server.listening, true, 'the server stopped');
    return;
  }
  assert.equal(
    server.process.exitCode,
    null,
    `the server exited:\n${server.output.slice(-20).join('\n')}`,
  );
  assert.equal(server.process.signalCode, null);
}
