import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describeWithDatabase, SQLITE } from '../../../test/helpers/each-database.ts';
import { call, type Reply, topicBody, userBody } from '../../../test/helpers/http.ts';
import { at, type Json, makeConformance } from '../../../test/helpers/openapi-conformance.ts';
import { useTestServer } from '../../../test/helpers/test-server.ts';
import { ERROR_STATUS } from '../../errors.ts';
import { MESSAGES } from '../../messages.ts';
import { OPERATIONS } from '../../operations/registry.ts';
import { buildOpenApiDocument, SERVICE_PATH } from './build-openapi-document.ts';

describe('the OpenAPI document', () => {
  const document = buildOpenApiDocument({ basePath: '', metrics: true });

  test('is valid OpenAPI 3.1 by the OpenAPI schema', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(document));
    assert.equal(validator.version, '3.1');
    assert.ok(result.valid, JSON.stringify(result.errors, null, 2));
  });

  test('documents every operation of the registry on the one address, told apart by query/condition', () => {
    const item = at(document, 'paths', SERVICE_PATH);
    const operations = Object.values(OPERATIONS);
    const methods = ['GET', 'POST', 'PUT', 'DELETE'] as const;
    const used = methods.filter((method) => operations.some((o) => o.methods.includes(method)));
    assert.deepEqual(Object.keys(item).sort(), used.map((method) => method.toLowerCase()).sort());
    const pascal = (name: string) =>
      name
        .split(/[/_-]/)
        .map((part) => `${part.charAt(0).toUpperCase()}${part.slice(1)}`)
        .join('');
    for (const method of used) {
      const on = operations.filter((operation) => operation.methods.includes(method));
      const object = at(item, method.toLowerCase());
      const requests = on.map((o) => ({ $ref: `#/components/schemas/${pascal(o.name)}Request` }));
      const [only] = on;
      if (on.length === 1 && only) {
        const suffix = method === only.methods[0] ? '' : pascal(method.toLowerCase());
        const id = `${pascal(only.name).replace(/^\w/, (c) => c.toLowerCase())}${suffix}`;
        assert.equal(object.operationId, id);
        assert.deepEqual(
          at(object, 'requestBody', 'content', 'application/json', 'schema'),
          requests[0],
        );
      } else {
        assert.equal(object.operationId, `service${pascal(method.toLowerCase())}`);
        assert.deepEqual(at(object, 'requestBody', 'content', 'application/json', 'schema'), {
          oneOf: requests,
        });
      }
      assert.deepEqual(
        (object['x-deskgate-operations'] as Json[]).map((o) => [o.operation, o.scope]),
        on.map((o) => [o.name, o.scope]),
      );
      for (const operation of on) {
        assert.match(String(object.summary), new RegExp(operation.name));
        if (method !== 'GET') continue;
        // Each GET-with-body operation's description carries a ready curl line.
        assert.match(
          String(object.description),
          new RegExp(
            `curl --request GET [^\\n]+\\n[^\\n]+\\n  --data '\\{"query":"${operation.query}","condition":"${operation.condition}"`,
          ),
        );
      }
    }
    assert.match(String(at(item, 'get').description), /fetch/);
    for (const path of ['/healthz', '/readyz', '/openapi.json', '/docs', '/metrics']) {
      assert.match(String(at(document, 'paths', path, 'get').operationId), /^\w+$/);
    }
    // The parameters come from the very schemas requests are validated with.
    const userParameters = at(document, 'components', 'schemas', 'UserAddParameters');
    assert.deepEqual((userParameters.required as string[]).sort(), [
      'default_email_id',
      'email',
      'name',
      'org_id',
      'password',
      'phone',
      'status',
      'timezone',
    ]);
    assert.equal(userParameters.additionalProperties, false);
    assert.equal(at(userParameters, 'properties', 'phone').maximum, 999_999_999_999_999);
    const topicId = at(document, 'components', 'schemas', 'TopicsSpecificByIdParameters');
    assert.equal(at(topicId, 'properties', 'id').minimum, 1);
    // sort "name" selects its own parameters.
    const request = at(document, 'components', 'schemas', 'TopicsSpecificRequest');
    assert.deepEqual(at(request, 'properties', 'sort').enum, ['id', 'name']);
    assert.ok(JSON.stringify(request.allOf).includes('TopicsSpecificByNameParameters'));
  });

  test('digit strings carry their range: a pattern refuses what the server refuses', () => {
    const ajv = new Ajv2020({ strict: false });
    const schemas = at(document, 'components', 'schemas');
    const idOf = (name: string, field: string) =>
      ajv.compile(at(schemas, name, 'properties', field));
    const topicId = idOf('TopicsSpecificByIdParameters', 'id');
    for (const ok of [1, '1', '007', '2147483647', 2147483647]) assert.ok(topicId(ok), String(ok));
    for (const bad of [0, '0', '2147483648', 2147483648, '-1', '1.5', 'x', '0'.repeat(21)]) {
      assert.ok(!topicId(bad), String(bad));
    }
    const phone = idOf('UserAddParameters', 'phone');
    for (const ok of [0, '0', '', '0612345678', '+351 21 000 0000', '9'.repeat(20)])
      assert.ok(phone(ok), String(ok));
    for (const bad of ['9'.repeat(21), 1_000_000_000_000_000, '12a', '--', 'x']) {
      assert.ok(!phone(bad), String(bad));
    }
  });

  test('dates, the one-of rule of ticket/specific and the header of ticket/add are in the document', () => {
    const ajv = new Ajv2020({ strict: false });
    const schemas = at(document, 'components', 'schemas');
    const startDate = ajv.compile(
      at(schemas, 'TicketAllByCreationDateParameters', 'properties', 'start_date'),
    );
    for (const ok of ['2026-11-01', '2026-12-31 23:59:59', '2024-02-29'])
      assert.ok(startDate(ok), ok);
    for (const bad of [
      '2026-13-01',
      '2026-00-10',
      '2026-11-32',
      '2026-11-01 24:00:00',
      '2026-11-01 10:60:00',
    ])
      assert.ok(!startDate(bad), bad);
    const ticketSpecific = ajv.compile(at(schemas, 'TicketSpecificParameters'));
    assert.ok(ticketSpecific({ id: 7 }) && ticketSpecific({ number: '000007' }));
    assert.ok(!ticketSpecific({}) && !ticketSpecific({ id: 7, number: '000007' }));
    assert.ok('TasksAllByTicketParameters' in schemas);
    assert.ok(!Object.keys(schemas).some((name) => name.includes('ByBy')));
    const email = ajv.compile(at(schemas, 'UserAddParameters', 'properties', 'email'));
    for (const ok of ['ana@example.com', ' o.brien+x@mail.example.org ']) assert.ok(email(ok), ok);
    // What `format: email` alone lets through and the server refuses.
    for (const bad of [
      '"quoted"@example.com',
      'ana@localhost',
      'ana@[192.0.2.1]',
      'a..b@example.com',
    ])
      assert.ok(!email(bad), bad);
    const post = at(document, 'paths', SERVICE_PATH, 'post', 'responses', '200', 'headers');
    assert.ok('X-Ticket-Number' in post, Object.keys(post).join(' '));
  });

  test('error examples carry the messages the code sends', () => {
    const item = at(document, 'paths', SERVICE_PATH);
    const example = (status: string, code: string) =>
      at(
        item,
        'post',
        'responses',
        status,
        'content',
        'application/json',
        'examples',
        code,
        'value',
      ).data;
    assert.equal(example('401', 'missing_api_key'), MESSAGES.missingApiKey);
    assert.equal(example('401', 'invalid_api_key'), MESSAGES.invalidApiKey);
    assert.equal(example('409', 'duplicate_email'), MESSAGES.duplicateEmail);
    assert.equal(example('415', 'unsupported_media_type'), MESSAGES.multipart);
  });

  test('no Idempotency-Key example that would make a retry fail', () => {
    const header = at(document, 'components', 'parameters', 'Idempotency-Key');
    assert.equal(header.example, undefined);
    assert.equal(header.examples, undefined);
  });

  test('lists every status of the interface, with the closed set of error codes', () => {
    const item = at(document, 'paths', SERVICE_PATH);
    const statuses = (method: string) => Object.keys(at(item, method, 'responses')).sort();
    const common = ['400', '401', '403', '405', '413', '415', '429', '500', '503'];
    // events/since: 410 cursor_expired.
    assert.deepEqual(statuses('get'), ['200', '204', '404', '410', ...common].sort());
    // sla/delete (POST and DELETE) answers 204 for a plan that does not exist.
    assert.deepEqual(
      statuses('post'),
      ['200', '204', '404', '409', '422', '501', '502', '504', ...common].sort(),
    );
    assert.deepEqual(statuses('delete'), ['200', '204', '404', ...common].sort());
    assert.deepEqual(at(item, 'get', 'responses', '204', 'headers', 'X-Error-Code'), {
      $ref: '#/components/headers/X-Error-Code',
    });
    assert.equal(
      at(document, 'components', 'headers', 'X-Error-Code', 'schema').const,
      'not_found',
    );
    assert.deepEqual(
      at(document, 'components', 'schemas', 'Error', 'properties', 'code').enum,
      Object.keys(ERROR_STATUS),
    );
    const codesOf = (status: string) =>
      at(item, 'post', 'responses', status, 'content', 'application/json', 'schema')
        .allOf as Json[];
    assert.deepEqual(at(codesOf('401')[1], 'properties', 'code').enum, [
      'missing_api_key',
      'invalid_api_key',
    ]);
    assert.ok(at(item, 'post', 'responses', '405', 'headers', 'Allow'));
    assert.ok(at(item, 'post', 'responses', '429', 'headers', 'Retry-After'));
    assert.ok(at(item, 'post', 'responses', '503', 'headers', 'Retry-After'));
  });

  test('has the apikey scheme, the request headers, examples and the service paths', () => {
    assert.deepEqual(at(document, 'components', 'securitySchemes', 'apikey'), {
      ...at(document, 'components', 'securitySchemes', 'apikey'),
      type: 'apiKey',
      in: 'header',
      name: 'apikey',
    });
    const post = at(document, 'paths', SERVICE_PATH, 'post');
    const parameters = (post.parameters as Json[]).map((p) => p.$ref);
    assert.deepEqual(parameters, [
      '#/components/parameters/X-Request-Id',
      '#/components/parameters/Idempotency-Key',
    ]);
    assert.ok(
      at(post, 'requestBody', 'content', 'application/json', 'examples', 'user/add user-add'),
    );
    assert.ok(at(post, 'responses', '409', 'content', 'application/json', 'examples'));
    for (const path of ['/healthz', '/readyz', '/openapi.json', '/docs', '/metrics']) {
      assert.deepEqual(at(document, 'paths', path, 'get').security, [], `${path} needs no key`);
    }
  });

  test('puts the base path in the server URL', () => {
    const prefixed = buildOpenApiDocument({ basePath: '/helpdesk' });
    assert.deepEqual(prefixed.servers, [{ url: '/helpdesk' }]);
    assert.deepEqual(document.servers, [{ url: '/' }]);
  });
});

describeWithDatabase('real responses match the documented schemas', SQLITE, (database) => {
  const server = useTestServer({ database });
  const strict = useTestServer({
    database,
    env: { DESKGATE_NOT_FOUND_STATUS: '404', DESKGATE_AUTH_FAILURE_LIMIT: '1' },
  });
  let key: string;
  let readOnly: string;
  let document: Json;
  let conforms: ReturnType<typeof makeConformance>['conforms'];

  before(async () => {
    ({ key } = await server.createKey());
    ({ key: readOnly } = await server.createKey({ scopes: ['read'] }));
    const reply = await call(`${server.origin}/openapi.json`);
    assert.equal(reply.status, 200);
    document = reply.body as unknown as Json;
    ({ conforms } = makeConformance(document));
  });

  test('GET /openapi.json needs no key and is the document the code builds', async () => {
    const reply = await call(`${server.origin}/openapi.json`);
    assert.equal(reply.headers['content-type'], 'application/json; charset=utf-8');
    // Its curl lines name the address this request reached.
    const built = JSON.stringify(buildOpenApiDocument({ basePath: '', metrics: true }));
    assert.deepEqual(
      reply.body,
      JSON.parse(built.replaceAll('http://localhost:8080', server.origin)),
    );
  });

  test('topics/specific: 200, 204, 400, 401, 403, 405, 413, 415', async () => {
    const get = (body: unknown, headers: Record<string, string> = { apikey: key }) =>
      call(server.url, { headers, body });
    const cases: [number, Promise<Reply>][] = [
      [200, get(topicBody(1))],
      [204, get(topicBody(999_999))],
      [400, get(topicBody('one'))],
      [400, get('{not json')],
      [401, get(topicBody(1), {})],
      [401, get(topicBody(1), { apikey: 'F'.repeat(32) })],
      [413, get({ ...topicBody(1), padding: 'x'.repeat(20_000) })],
      [415, get(topicBody(1), { apikey: key, 'content-type': 'multipart/form-data; boundary=x' })],
    ];
    for (const [status, pending] of cases) {
      const reply = await pending;
      assert.equal(reply.status, status, reply.text);
      conforms(SERVICE_PATH, 'get', reply);
    }
    const wrongMethod = await call(server.url, {
      method: 'POST',
      headers: { apikey: key },
      body: topicBody(1),
    });
    assert.equal(wrongMethod.status, 405);
    conforms(SERVICE_PATH, 'post', wrongMethod);
    const noScope = await call(server.url, {
      method: 'POST',
      headers: { apikey: readOnly },
      body: userBody(),
    });
    assert.equal(noScope.status, 403);
    conforms(SERVICE_PATH, 'post', noScope);
  });

  test('topics/specific with DESKGATE_NOT_FOUND_STATUS=404, and the failed-auth 429', async () => {
    const missing = await call(strict.url, { headers: { apikey: key }, body: topicBody(999_999) });
    assert.equal(missing.status, 404);
    conforms(SERVICE_PATH, 'get', missing);
    let reply: Reply | undefined;
    for (let attempt = 0; attempt < 5 && reply?.status !== 429; attempt++) {
      reply = await call(strict.url, { headers: { apikey: 'A'.repeat(32) }, body: topicBody(1) });
      conforms(SERVICE_PATH, 'get', reply);
    }
    assert.equal(reply?.status, 429);
  });

  test('user/add: 200 (POST and PUT), 400 with field errors, 409, 422', async () => {
    const send = (method: string, body: unknown, headers: Record<string, string> = {}) =>
      call(server.url, { method, headers: { apikey: key, ...headers }, body });
    const created = await send('POST', userBody({ email: 'conform@example.com' }));
    assert.equal(created.status, 200, created.text);
    conforms(SERVICE_PATH, 'post', created);
    const put = await send('PUT', userBody());
    assert.equal(put.status, 200, put.text);
    conforms(SERVICE_PATH, 'put', put);
    const invalid = await send('POST', userBody({ email: 'nope', phone: -1 }));
    assert.equal(invalid.status, 400);
    assert.equal(invalid.body?.errors?.length, 2);
    conforms(SERVICE_PATH, 'post', invalid);
    const duplicate = await send('POST', userBody({ email: 'CONFORM@example.com' }));
    assert.equal(duplicate.status, 409);
    assert.equal(duplicate.body?.existing_id, created.body?.data);
    conforms(SERVICE_PATH, 'post', duplicate);
    const first = await send('POST', userBody(), { 'Idempotency-Key': 'conform-1' });
    assert.equal(first.status, 200);
    const mismatch = await send('POST', userBody(), { 'Idempotency-Key': 'conform-1' });
    assert.equal(mismatch.status, 422);
    conforms(SERVICE_PATH, 'post', mismatch);
  });

  // Every example of every operation is checked on every database by
  // test/conformance/every-operation.test.ts; these are the answers that are not a success.
  test('look-ups that find nothing, are invalid or lack the scope match the documented GET responses', async () => {
    const { key: everything } = await server.createKey({
      scopes: ['read', 'write', 'users:read'],
    });
    const get = (body: Record<string, unknown>, apikey = everything) =>
      call(server.url, { headers: { apikey }, body });
    const range = { start_date: '2000-01-01', end_date: '2999-12-31' };
    const cases: [number, Record<string, unknown>][] = [
      [200, { query: 'topics', condition: 'all', parameters: { parent: 999 } }],
      [204, { query: 'topics', condition: 'specific', sort: 'name', parameters: { name: 'zzz' } }],
      [204, { query: 'user', condition: 'specific', parameters: { id: 999_999 } }],
      [200, { query: 'user', condition: 'all', sort: 'creationDate', parameters: range }],
      [400, { query: 'user', condition: 'all', parameters: { ...range, after: 'nope' } }],
    ];
    for (const [status, body] of cases) {
      const reply = await get(body);
      assert.equal(reply.status, status, `${JSON.stringify(body)} → ${reply.text}`);
      conforms(SERVICE_PATH, 'get', reply);
    }
    const noScope = await get({ query: 'user', condition: 'all', parameters: range }, key);
    assert.equal(noScope.status, 403);
    assert.equal(noScope.body?.code, 'insufficient_scope');
    conforms(SERVICE_PATH, 'get', noScope);
  });

  test('/healthz and /readyz', async () => {
    for (const path of ['/healthz', '/readyz']) {
      const reply = await call(`${server.origin}${path}`);
      assert.equal(reply.status, 200);
      conforms(path, 'get', reply);
    }
  });
});
