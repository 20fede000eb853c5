import assert from 'node:assert/strict';
import type { IncomingHttpHeaders } from 'node:http';

/** What the envelope assertions read: a Reply from call(), or a raw exchange's reply. */
export interface AnyReply {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * The reply is the error envelope of the interface: `status`, JSON with X-Request-Id, and a body
 * `{status: "Error", time: number, data: non-empty message, code}` (plus `errors` or `existing_id`
 * where the code has them). `fields`, when given, are the fields the `errors` list names, in order.
 */
export function assertError(
  reply: AnyReply,
  status: number,
  code: string,
  fields?: readonly string[],
): void {
  assert.equal(reply.status, status, reply.text);
  assert.equal(reply.headers['content-type'], JSON_TYPE, reply.text);
  assert.match(String(reply.headers['x-request-id'] ?? ''), /./, 'no X-Request-Id');
  const body = JSON.parse(reply.text) as Record<string, unknown>;
  assert.equal(body.status, 'Error', reply.text);
  assert.equal(body.code, code, reply.text);
  assert.equal(typeof body.time, 'number', reply.text);
  assert.equal(typeof body.data, 'string', reply.text);
  assert.notEqual(body.data, '', reply.text);
  if (body.errors !== undefined) {
    assert.ok(Array.isArray(body.errors), reply.text);
    for (const e of body.errors as { field: unknown; message: unknown }[]) {
      assert.equal(typeof e.field, 'string', reply.text);
      assert.equal(typeof e.message, 'string', reply.text);
    }
  }
  if (fields) {
    assert.deepEqual(
      (body.errors as { field: string }[] | undefined)?.map((e) => e.field),
      [...fields],
      reply.text,
    );
  }
}

/** The "nothing found" answer: 204, no body, X-Error-Code: not_found. */
export function assertNoContent(reply: AnyReply): void {
  assert.equal(reply.status, 204, reply.text);
  assert.equal(reply.text, '');
  assert.equal(reply.headers['x-error-code'], 'not_found');
}
