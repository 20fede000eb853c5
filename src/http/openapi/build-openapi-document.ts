import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { ErrorCode } from '../../errors.ts';
import type { HttpMethod } from '../../operations/operation.ts';
import { OPERATIONS, type OperationName } from '../../operations/registry.ts';
import {
  errorCodesFor,
  errorEnvelopeSchema,
  fieldErrorSchema,
  serviceStatusEnvelopeSchema,
  topicEnvelopeSchema,
  topicSchema,
  userIdEnvelopeSchema,
} from './response-schemas.ts';

/** A JSON value as OpenAPI holds it; the document is plain data. */
type Json = { [key: string]: unknown };

/** The one address of the interface, relative to the server URL (which carries the base path). */
export const SERVICE_PATH = '/upload/svc_wbs/';

const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: Json, examples?: Record<string, Json>): Json => ({
  'application/json': { schema, ...(examples ? { examples } : {}) },
});

/** What the document says about one operation beyond its schema: the registry has the rest. */
interface OperationDocs {
  summary: string;
  description: string;
  successSchema: string;
  successExample: unknown;
  /** Statuses other than 200 and the ones every call can get. */
  extraResponses: Record<string, Json>;
  example: Json;
  idempotencyKey: boolean;
}

const EXAMPLE_MESSAGES: Record<ErrorCode, string> = {
  invalid_json: 'The body is not valid JSON.',
  invalid_request: 'The body needs "query" and "condition", both strings.',
  unknown_operation: 'Unknown operation "topics"/"all"; supported: topics/specific, user/add.',
  invalid_parameters: 'Invalid parameters: parameters.email must be a valid email address.',
  missing_api_key: 'Send your API key in the apikey header.',
  invalid_api_key: 'The API key is not valid.',
  insufficient_scope: 'This API key lacks the "write" scope needed by user/add.',
  ip_not_allowed: 'This API key may not be used from this address.',
  not_found: 'No items found.',
  method_not_allowed: 'topics/specific must be sent with GET.',
  duplicate_email: 'A user with this email address already exists.',
  payload_too_large: 'The body is larger than 16384 bytes.',
  unsupported_media_type: 'Send the body as JSON, not multipart/form-data.',
  idempotency_mismatch: 'This Idempotency-Key was already used with a different request body.',
  too_many_requests: 'Too many requests; try again in 12 seconds.',
  internal_error: 'Internal server error.',
  database_unavailable: 'The database is unavailable; try again shortly.',
  overloaded: 'The service is busy; try again shortly.',
};

function errorExample(code: ErrorCode): Json {
  return {
    value: {
      status: 'Error',
      time: 0.00031,
      data: EXAMPLE_MESSAGES[code],
      code,
      ...(code === 'invalid_parameters'
        ? { errors: [{ field: 'parameters.email', message: 'must be a valid email address' }] }
        : {}),
      ...(code === 'duplicate_email' ? { existing_id: '7' } : {}),
    },
  };
}

const HEADER_REFS = {
  requestId: { $ref: '#/components/headers/X-Request-Id' },
  retryAfter: { $ref: '#/components/headers/Retry-After' },
  allow: { $ref: '#/components/headers/Allow' },
};

/** Sent on service calls when the per-key limit is on (DESKGATE_RATE_LIMIT). */
const RATE_LIMIT_HEADERS: Json = {
  'X-RateLimit-Limit': { $ref: '#/components/headers/X-RateLimit-Limit' },
  'X-RateLimit-Remaining': { $ref: '#/components/headers/X-RateLimit-Remaining' },
  'X-RateLimit-Reset': { $ref: '#/components/headers/X-RateLimit-Reset' },
  'RateLimit-Policy': { $ref: '#/components/headers/RateLimit-Policy' },
  RateLimit: { $ref: '#/components/headers/RateLimit' },
};

const STATUS_DESCRIPTIONS: Record<number, string> = {
  400: 'The body or its parameters are not acceptable.',
  401: 'No API key, or one that is unknown, revoked or malformed.',
  403: 'The key lacks the scope, or its IP allow-list excludes the caller.',
  404: 'Not found (a missing topic, with DESKGATE_NOT_FOUND_STATUS=404).',
  405: 'The operation exists but needs another method; see the Allow header.',
  409: 'The email address is taken (case-insensitively); existing_id names its user.',
  413: 'The body is larger than DESKGATE_BODY_LIMIT (16 KiB by default).',
  415: 'multipart/form-data bodies are refused; send JSON.',
  422: 'The Idempotency-Key was used before with another body.',
  429:
    "Too many requests: the key's rate limit, or failed authentications from this address. " +
    'Wait Retry-After seconds.',
  500: 'A bug; the details are only in the log.',
  503: 'The database is unavailable, or the instance is busy; retry after Retry-After seconds.',
};

/** The error response for one status, its `code` narrowed to the codes that status carries. */
function errorResponse(status: number): Json {
  const codes = errorCodesFor(status);
  const headers: Json = { 'X-Request-Id': HEADER_REFS.requestId };
  if (status === 405) headers.Allow = HEADER_REFS.allow;
  if (status === 429 || status === 503) headers['Retry-After'] = HEADER_REFS.retryAfter;
  if (status === 429) Object.assign(headers, RATE_LIMIT_HEADERS);
  return {
    description: STATUS_DESCRIPTIONS[status] ?? `Error ${status}.`,
    headers,
    content: json(
      { allOf: [ref('Error'), { properties: { code: { enum: codes } } }] },
      Object.fromEntries(codes.map((code) => [code, errorExample(code)])),
    ),
  };
}

/** Statuses any call to the service address can get. */
const COMMON_ERROR_STATUSES = [400, 401, 403, 405, 413, 415, 429, 500, 503];

const OPERATION_DOCS: Record<OperationName, OperationDocs> = {
  'topics/specific': {
    summary: 'topics/specific — look up one help topic',
    description:
      'Sent as **GET with a JSON body** (Content-Length or chunked). Browsers and `fetch` cannot ' +
      'send a GET body: use curl, Node’s http module or the `deskgate/client` package. ' +
      'Needs the `read` scope. A topic that does not exist answers **204 No Content** with ' +
      '`X-Error-Code: not_found` (or 404 with the envelope, with DESKGATE_NOT_FOUND_STATUS=404).',
    successSchema: 'TopicEnvelope',
    successExample: {
      status: 'Success',
      time: 0.00042,
      data: { total: 1, topic: (topicSchema.meta()?.examples as unknown[] | undefined)?.[0] },
    },
    extraResponses: {
      204: {
        description:
          'No topic has this id (the default; HTTP forbids a body on 204, so the code travels in ' +
          'X-Error-Code).',
        headers: {
          'X-Error-Code': {
            description: 'Always `not_found`.',
            required: true,
            schema: { type: 'string', const: 'not_found' },
          },
          'X-Request-Id': HEADER_REFS.requestId,
        },
      },
      404: errorResponse(404),
    },
    example: { query: 'topics', condition: 'specific', parameters: { id: 1 } },
    idempotencyKey: false,
  },
  'user/add': {
    summary: 'user/add — create a user',
    description:
      'Creates the user, its email and its account in one transaction. Needs the `write` scope. ' +
      'Every field is required; every problem is reported at once. A password that is already ' +
      'a bcrypt or argon2 hash is stored as sent; anything else is hashed with bcrypt. ' +
      'Send an `Idempotency-Key` to make retries safe. PUT is accepted as well as POST.',
    successSchema: 'UserIdEnvelope',
    successExample: { status: 'Success', time: 0.051, data: '42' },
    extraResponses: { 409: errorResponse(409), 422: errorResponse(422) },
    example: {
      query: 'user',
      condition: 'add',
      parameters: {
        name: 'Ann Example',
        email: 'ann@example.com',
        password: 's3cret',
        timezone: 'Europe/Lisbon',
        phone: 351210000000,
        org_id: 0,
        default_email_id: 0,
        status: 1,
      },
    },
    idempotencyKey: true,
  },
};

function componentName(name: OperationName, suffix: string): string {
  const camel = name.replace(/(^|\/)(\w)/g, (_match, _sep, letter: string) => letter.toUpperCase());
  return `${camel}${suffix}`;
}

function toSchema(schema: z.ZodType, io: 'input' | 'output'): Json {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io,
    unrepresentable: 'any',
  }) as Json;
  return rest;
}

function responseComponents(): Record<string, Json> {
  const registry = z.registry<{ id: string }>();
  registry.add(topicSchema, { id: 'Topic' });
  registry.add(topicEnvelopeSchema, { id: 'TopicEnvelope' });
  registry.add(userIdEnvelopeSchema, { id: 'UserIdEnvelope' });
  registry.add(serviceStatusEnvelopeSchema, { id: 'ServiceStatusEnvelope' });
  registry.add(fieldErrorSchema, { id: 'FieldError' });
  registry.add(errorEnvelopeSchema, { id: 'Error' });
  const { schemas } = z.toJSONSchema(registry, {
    target: 'draft-2020-12',
    io: 'output',
    uri: (id) => `#/components/schemas/${id}`,
  });
  const components: Record<string, Json> = {};
  for (const [id, schema] of Object.entries(schemas)) {
    // Zod names each schema with a $id; a $id would become the base of its $refs.
    const { $schema: _dialect, $id: _id, ...rest } = schema as Json;
    components[id] = rest;
  }
  return components;
}

function operationObject(name: OperationName, method: HttpMethod): Json {
  const operation = OPERATIONS[name];
  const docs = OPERATION_DOCS[name];
  const responses: Record<string, Json> = {
    200: {
      description: 'Success.',
      headers: { 'X-Request-Id': HEADER_REFS.requestId, ...RATE_LIMIT_HEADERS },
      content: json(ref(docs.successSchema), { success: { value: docs.successExample } }),
    },
    ...docs.extraResponses,
  };
  for (const status of COMMON_ERROR_STATUSES) responses[status] = errorResponse(status);
  const sorted = Object.fromEntries(
    Object.entries(responses).sort(([a], [b]) => Number(a) - Number(b)),
  );
  return {
    operationId: `${componentName(name, '').replace(/^\w/, (c) => c.toLowerCase())}${method === 'PUT' ? 'Put' : ''}`,
    tags: [name],
    summary: method === 'PUT' ? `${docs.summary} (PUT)` : docs.summary,
    description: docs.description,
    security: [{ apikey: [] }],
    parameters: [
      { $ref: '#/components/parameters/X-Request-Id' },
      ...(docs.idempotencyKey ? [{ $ref: '#/components/parameters/Idempotency-Key' }] : []),
    ],
    requestBody: {
      required: true,
      description: `query "${operation.query}", condition "${operation.condition}". Read as JSON whatever the Content-Type says (multipart/form-data → 415).`,
      content: json(ref(componentName(name, 'Request')), { [name]: { value: docs.example } }),
    },
    responses: sorted,
    'x-deskgate-scope': operation.scope,
  };
}

function requestComponents(): Record<string, Json> {
  const components: Record<string, Json> = {};
  for (const name of Object.keys(OPERATIONS) as OperationName[]) {
    const operation = OPERATIONS[name];
    const parametersName = componentName(name, 'Parameters');
    components[parametersName] = toSchema(operation.parameters, 'input');
    components[componentName(name, 'Request')] = {
      type: 'object',
      required: ['query', 'condition', 'parameters'],
      properties: {
        query: { const: operation.query },
        condition: { const: operation.condition },
        parameters: ref(parametersName),
        ...(name === 'topics/specific'
          ? {
              sort: {
                const: 'id',
                description: 'Optional; only "id" (the PHP service required it).',
              },
            }
          : {}),
      },
      description: 'Other top-level fields are ignored.',
      examples: [OPERATION_DOCS[name].example],
    };
  }
  return components;
}

function servicePath(summary: string, description: string, schema: Json | undefined): Json {
  return {
    get: {
      summary,
      description,
      security: [],
      tags: ['service'],
      responses: {
        200: {
          description: 'OK.',
          ...(schema ? { content: json(schema) } : {}),
        },
      },
    },
  };
}

function readPackageVersion(): string {
  const url = new URL('../../../package.json', import.meta.url);
  return (JSON.parse(readFileSync(url, 'utf8')) as { version: string }).version;
}

/**
 * The OpenAPI 3.1 document of the whole interface, built from the operations' own parameter
 * schemas (the ones requests are validated with) and the response schemas of
 * response-schemas.ts, so the document cannot drift from the code. Computed once per process.
 * `basePath` becomes the server URL; `metrics` lists /metrics (DESKGATE_METRICS).
 */
export function buildOpenApiDocument(options: { basePath: string; metrics?: boolean }): Json {
  const operations = Object.entries(OPERATIONS) as [
    OperationName,
    (typeof OPERATIONS)[OperationName],
  ][];
  const servicePathItem: Json = {};
  for (const [name, operation] of operations) {
    for (const method of operation.methods) {
      servicePathItem[method.toLowerCase()] = operationObject(name, method);
    }
  }
  const readyz = servicePath(
    'Readiness',
    'The database is reachable. 503 `database_unavailable` otherwise.',
    ref('ServiceStatusEnvelope'),
  );
  (readyz.get as Json).responses = {
    ...((readyz.get as Json).responses as Json),
    503: errorResponse(503),
  };
  return {
    openapi: '3.1.0',
    info: {
      title: 'deskgate',
      version: readPackageVersion(),
      description:
        'The HTTP interface of a help desk: **one address**, operations picked by `query` + ' +
        '`condition` in a JSON body, an `apikey` header on every call. Every response is ' +
        '`application/json; charset=utf-8` (except 204) and carries `X-Request-Id`. `time` is ' +
        'the processing time in seconds.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    servers: [{ url: options.basePath === '' ? '/' : options.basePath }],
    tags: [
      ...Object.keys(OPERATIONS).map((name) => ({ name })),
      { name: 'service', description: 'Service endpoints; no API key needed.' },
    ],
    paths: {
      [SERVICE_PATH]: servicePathItem,
      '/healthz': servicePath('Liveness', 'The process is alive.', ref('ServiceStatusEnvelope')),
      '/readyz': readyz,
      '/openapi.json': servicePath('This document', 'OpenAPI 3.1, JSON.', { type: 'object' }),
      ...(options.metrics
        ? {
            '/metrics': {
              get: {
                summary: 'Prometheus metrics',
                description:
                  'Prometheus text format; no key, so keep it private at the proxy or network ' +
                  'level (DESKGATE_METRICS=false turns it off).',
                security: [],
                tags: ['service'],
                responses: {
                  200: { description: 'Metrics.', content: { 'text/plain': {} } },
                },
              },
            },
          }
        : {}),
      '/docs': {
        get: {
          summary: 'API reference page',
          description: 'HTML rendered from this document; its assets are served by deskgate.',
          security: [],
          tags: ['service'],
          responses: { 200: { description: 'An HTML page.', content: { 'text/html': {} } } },
        },
      },
    },
    components: {
      schemas: { ...requestComponents(), ...responseComponents() },
      securitySchemes: {
        apikey: {
          type: 'apiKey',
          in: 'header',
          name: 'apikey',
          description:
            '32 uppercase hex characters, shown once at creation (`deskgate keys create`). ' +
            'Scopes: `read` (topics/specific), `write` (user/add).',
        },
      },
      parameters: {
        'X-Request-Id': {
          name: 'X-Request-Id',
          in: 'header',
          required: false,
          description: 'Your id for the request, echoed back when it is sane; else a new one.',
          schema: { type: 'string', maxLength: 128 },
        },
        'Idempotency-Key': {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description:
            'A retried creation with the same key and body returns the first response again; ' +
            'the same key with another body → 422. Remembered for 24 hours.',
          schema: { type: 'string', minLength: 1, maxLength: 255 },
          example: '7d1c1b52-signup-42',
        },
      },
      headers: {
        'X-Request-Id': {
          description: 'The request id (yours, when you sent a sane one).',
          required: true,
          schema: { type: 'string' },
        },
        'Retry-After': {
          description: 'Seconds to wait before trying again.',
          required: true,
          schema: { type: 'integer', minimum: 0 },
        },
        'X-RateLimit-Limit': {
          description:
            'Requests per minute this API key may make; sent when the per-key limit is on, ' +
            'not on a 429 for failed authentications.',
          schema: { type: 'integer', minimum: 1 },
        },
        'X-RateLimit-Remaining': {
          description: 'Requests left in the current minute.',
          schema: { type: 'integer', minimum: 0 },
        },
        'X-RateLimit-Reset': {
          description: 'Seconds until the window starts over (a delay, not an epoch time).',
          schema: { type: 'integer', minimum: 0 },
        },
        'RateLimit-Policy': {
          description:
            'The limit as in draft-ietf-httpapi-ratelimit-headers-10: `"per-key";q=<limit>;w=60`, ' +
            'or `"failed-auth";q=<limit>;w=<window>` on a 429 for failed authentications.',
          schema: { type: 'string' },
          example: '"per-key";q=1200;w=60',
        },
        RateLimit: {
          description:
            'What is left of it: `"per-key";r=<remaining>;t=<seconds until the window starts over>`.',
          schema: { type: 'string' },
          example: '"per-key";r=1199;t=60',
        },
        Allow: {
          description: 'The methods the operation accepts.',
          required: true,
          schema: { type: 'string' },
          example: 'POST, PUT',
        },
      },
    },
    security: [{ apikey: [] }],
  };
}
