import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { describeWithDatabase, SQLITE } from '../../../test/helpers/each-database.ts';
import { call, type Reply, topicBody, userBody } from '../../../test/helpers/http.ts';
import { useTestServer } from '../../../test/helpers/test-server.ts';
import { ERROR_STATUS } from '../../errors.ts';
import { buildOpenApiDocument, SERVICE_PATH } from './build-openapi-document.ts';

type Json = { [key: string]: unknown };
// ajv-formats is CommonJS with a default export; under NodeNext its callable is `.default`.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

function at(value: unknown, ...path: string[]): Json {
  let node = value;
  for (const key of path) {
    assert.ok(
      node && typeof node === 'object' && key in node,
      `document has no ${path.join(' → ')}`,
    );
    node = (node as Json)[key];
  }
  return node as Json;
}

/** Checks real replies against the documented responses of one document. */
function makeConformance(document: Json) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  const compiled = new Map<string, ValidateFunction>();
  return (path: string, method: string, reply: Reply): void => {
    const documented = at(document, 'paths', path, method, 'responses');
    const response = documented[String(reply.status)] as Json | undefined;
    assert.ok(response, `${method.toUpperCase()} ${path} → ${reply.status} is not documented`);
    for (const [header, spec] of Object.entries((response.headers as Json | undefined) ?? {})) {
      const { $ref } = spec as { $ref?: string };
      const definition = $ref ? at(document, ...$ref.slice(2).split('/')) : (spec as Json);
      if (definition.required !== true) continue;
      assert.ok(
        reply.headers[header.toLowerCase()] !== undefined,
        `${reply.status} lacks documented header ${header}`,
      );
    }
    const content = response.content as Json | undefined;
    if (!content) {
      assert.equal(reply.text, '', `${reply.status} is documented without a body`);
      return;
    }
    assert.equal(reply.headers['content-type'], 'application/json; charset=utf-8');
    const cacheKey = `${path} ${method} ${reply.status}`;
    let validate = compiled.get(cacheKey);
    if (!validate) {
      const schema = at(content, 'application/json', 'schema');
      // The response schemas' $refs point at #/components/…: give them the document's components.
      validate = ajv.compile({ ...schema, components: document.components });
      compiled.set(cacheKey, validate);
    }
    assert.ok(
      validate(reply.body),
      `${cacheKey}: ${reply.text}\n${JSON.stringify(validate.errors, null, 2)}`,
    );
  };
}

describe('the OpenAPI document', () => {
  const document = buildOpenApiDocument({ basePath: '', metrics: true });

  test('is valid OpenAPI 3.1 by the OpenAPI schema', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(document));
    assert.equal(validator.version, '3.1');
    assert.ok(result.valid, JSON.stringify(result.errors, null, 2));
  });

  test('documents both operations on the one address, the GET one with its body', () => {
    const item = at(document, 'paths', SERVICE_PATH);
    assert.deepEqual(Object.keys(item).sort(), ['get', 'post', 'put']);
    const get = at(item, 'get');
    assert.equal(get.operationId, 'topicsSpecific');
    assert.deepEqual(at(get, 'requestBody', 'content', 'application/json', 'schema'), {
      $ref: '#/components/schemas/TopicsSpecificRequest',
    });
    assert.equal(at(item, 'post').operationId, 'userAdd');
    assert.equal(at(item, 'put').operationId, 'userAddPut');
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
    const topicId = at(document, 'components', 'schemas', 'TopicsSpecificParameters');
    assert.equal(at(topicId, 'properties', 'id').minimum, 1);
  });

  test('lists every status of the interface, with the closed set of error codes', () => {
    const item = at(document, 'paths', SERVICE_PATH);
    const statuses = (method: string) => Object.keys(at(item, method, 'responses')).sort();
    const common = ['400', '401', '403', '405', '413', '415', '429', '500', '503'];
    assert.deepEqual(statuses('get'), ['200', '204', '404', ...common].sort());
    assert.deepEqual(statuses('post'), ['200', '409', '422', ...common].sort());
    assert.equal(
      at(item, 'get', 'responses', '204', 'headers', 'X-Error-Code').description,
      'Always `not_found`.',
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
    assert.ok(at(post, 'requestBody', 'content', 'application/json', 'examples', 'user/add'));
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
  let conforms: ReturnType<typeof makeConformance>;

  before(async () => {
    ({ key } = await server.createKey());
    ({ key: readOnly } = await server.createKey({ scopes: ['read'] }));
    const reply = await call(`${server.origin}/openapi.json`);
    assert.equal(reply.status, 200);
    document = reply.body as unknown as Json;
    conforms = makeConformance(document);
  });

  test('GET /openapi.json needs no key and is the document the code builds', async () => {
    const reply = await call(`${server.origin}/openapi.json`);
    assert.equal(reply.headers['content-type'], 'application/json; charset=utf-8');
    assert.deepEqual(
      reply.body,
      JSON.parse(JSON.stringify(buildOpenApiDocument({ basePath: '', metrics: true }))),
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

  test('/healthz and /readyz', async () => {
    for (const path of ['/healthz', '/readyz']) {
      const reply = await call(`${server.origin}${path}`);
      assert.equal(reply.status, 200);
      conforms(path, 'get', reply);
    }
  });
});
