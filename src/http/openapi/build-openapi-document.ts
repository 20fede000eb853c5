import { MESSAGES } from '../../messages.ts';
import { readPackageVersion } from '../../package-files.ts';
import { errorResponse, type Json, json, ref } from './error-responses.ts';
import {
  operationComponents,
  resourceTags,
  scopesDescription,
  servicePathItem,
} from './service-operations.ts';

/** The one address of the interface, relative to the server URL (which carries the base path). */
export const SERVICE_PATH = '/upload/svc_wbs/';

/** What any path answers to a request Node cannot parse (the one 4xx a service endpoint gives). */
const MALFORMED_REQUEST: Json = {
  description: 'The request is not valid HTTP/1.1, or its headers are too large.',
  headers: { 'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' } },
  content: json(
    { allOf: [ref('Error'), { properties: { code: { const: 'invalid_request' } } }] },
    {
      invalid_request: {
        value: {
          status: 'Error',
          time: 0,
          data: MESSAGES.malformedHttp,
          code: 'invalid_request',
        },
      },
    },
  ),
};

function servicePath(
  operationId: string,
  summary: string,
  description: string,
  schema: Json | undefined,
): Json {
  return {
    get: {
      operationId,
      summary,
      description,
      security: [],
      tags: ['service'],
      responses: {
        200: {
          description: 'OK.',
          ...(schema ? { content: json(schema) } : {}),
        },
        400: MALFORMED_REQUEST,
      },
    },
  };
}

/**
 * The OpenAPI 3.1 document of the whole interface, built from the registry: each operation's
 * own parameter and response schemas (the ones requests are validated with), docs and examples,
 * so the document cannot drift from the code. Several operations on one method of the one
 * address become one Operation Object told apart by query/condition
 * (docs/decisions/060-self-contained-operations.md). Computed once per process. `basePath`
 * becomes the server URL; `metrics` lists /metrics (DESKGATE_METRICS).
 */
export function buildOpenApiDocument(options: {
  basePath: string;
  metrics?: boolean;
  /** The service address documented, the first of DESKGATE_PATHS; default `/upload/svc_wbs/`. */
  servicePath?: string;
}): Json {
  const service = options.servicePath ?? SERVICE_PATH;
  const readyz = servicePath(
    'readyz',
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
        'the processing time in seconds.\n\nThe look-ups are **GET requests with a JSON body**, ' +
        'as in the original service. Browsers, and clients generated from this document on top ' +
        'of `fetch`, cannot send a body with GET: call them with curl (each one’s description ' +
        'has the line), Node’s http module, or the `deskgate/client` package. A browser sends ' +
        'a look-up as a POST with the header `X-HTTP-Method-Override: GET`, which is treated as ' +
        'the GET it names (only GET may be named; a plain POST to a look-up is 405). Pages on ' +
        'another origin need it listed in `DESKGATE_CORS_ORIGINS` (exact origins; CORS is off ' +
        'otherwise). Answers over 1 KiB are gzipped when `Accept-Encoding` allows it.\n\n' +
        'Linting: `redocly lint` with its default rules reports one error, no-path-trailing-slash. ' +
        'The slash is kept on purpose: `/upload/svc_wbs/` is the original service’s address, ' +
        'which its clients call (`/upload/svc_wbs` is served too).',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    servers: [{ url: options.basePath === '' ? '/' : options.basePath }],
    tags: [
      ...resourceTags(),
      { name: 'service', description: 'Service endpoints; no API key needed.' },
    ],
    paths: {
      [service]: servicePathItem(`http://localhost:8080${options.basePath}${service}`),
      '/healthz': servicePath(
        'healthz',
        'Liveness',
        'The process is alive (it answers without touching the database).',
        ref('ServiceStatusEnvelope'),
      ),
      '/readyz': readyz,
      '/openapi.json': servicePath(
        'openApiDocument',
        'This document',
        'OpenAPI 3.1 of the whole interface, JSON.',
        { type: 'object' },
      ),
      ...(options.metrics
        ? {
            '/metrics': {
              get: {
                operationId: 'metrics',
                summary: 'Prometheus metrics',
                description:
                  'Prometheus text format; no key, so keep it private at the proxy or network ' +
                  'level (DESKGATE_METRICS=false turns it off).',
                security: [],
                tags: ['service'],
                responses: {
                  200: { description: 'Metrics.', content: { 'text/plain': {} } },
                  400: MALFORMED_REQUEST,
                },
              },
            },
          }
        : {}),
      '/docs': {
        get: {
          operationId: 'docsPage',
          summary: 'API reference page',
          description: 'HTML rendered from this document; its assets are served by deskgate.',
          security: [],
          tags: ['service'],
          responses: {
            200: { description: 'An HTML page.', content: { 'text/html': {} } },
            400: MALFORMED_REQUEST,
          },
        },
      },
    },
    components: {
      schemas: operationComponents(),
      securitySchemes: {
        apikey: {
          type: 'apiKey',
          in: 'header',
          name: 'apikey',
          description:
            '32 uppercase hex characters, shown once at creation (`deskgate keys create`). ' +
            `Scopes: ${scopesDescription()}.`,
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
            'A value of your own, new for each write (a UUID, or your record id), sent again ' +
            'only when you retry that same write: the retry then returns the first response ' +
            'instead of writing again (a second user or ticket, a second reply mailed, or a ' +
            '409). The same key with another body → 422. Remembered for 24 hours.',
          schema: { type: 'string', minLength: 1, maxLength: 255 },
        },
      },
      headers: {
        'X-Error-Code': {
          description: 'Why there is no body: `not_found`.',
          required: true,
          schema: { type: 'string', const: 'not_found' },
        },
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
