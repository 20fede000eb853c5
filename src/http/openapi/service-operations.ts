import * as z from 'zod';
import { ERROR_STATUS } from '../../errors.ts';
import { feedEventSchema } from '../../operations/events-since/events-since.ts';
import type { HttpMethod, Operation, OperationVariant } from '../../operations/operation.ts';
import { OPERATIONS } from '../../operations/registry.ts';
import { faqCategoryViewSchema } from '../../operations/views/catalogue-view.ts';
import { topicViewSchema } from '../../operations/views/topic-view.ts';
import { userViewSchema } from '../../operations/views/user-view.ts';
import {
  COMMON_ERROR_STATUSES,
  errorResponse,
  HEADER_REFS,
  type Json,
  json,
  RATE_LIMIT_HEADERS,
  ref,
} from './error-responses.ts';
import {
  errorEnvelopeSchema,
  fieldErrorSchema,
  serviceStatusEnvelopeSchema,
  successEnvelope,
} from './response-schemas.ts';

const ALL: readonly Operation[] = Object.values(OPERATIONS);

/** `topics/specific` → `TopicsSpecific`. */
export function pascal(text: string): string {
  return text.replace(/(^|[/_-])(\w)/g, (_match, _separator, letter: string) =>
    letter.toUpperCase(),
  );
}

function camel(text: string): string {
  return pascal(text).replace(/^\w/, (letter) => letter.toLowerCase());
}

/** `TopicsSpecificByName`: the operation, and the `sort` when it has several. */
function variantName(operation: Operation, variant: OperationVariant): string {
  const several = operation.variants.length > 1;
  return `${pascal(operation.name)}${several && variant.sort ? sortSuffix(variant.sort) : ''}`;
}

/** `creationDate` → `ByCreationDate`; `byTicket`, a sort named as a way already, → `ByTicket`. */
export function sortSuffix(sort: string): string {
  const name = pascal(sort);
  return name.startsWith('By') ? name : `By${name}`;
}

function withoutDialect(schema: unknown): Json {
  // Zod names each registered schema with a $id, which would become the base of its $refs.
  const { $schema: _dialect, $id: _id, ...rest } = schema as Json;
  return rest;
}

/**
 * JSON Schemas of zod schemas by name, referring to each other under `base` (the document's
 * #/components/schemas/; scripts/generate-client-types.ts's #/$defs/).
 */
export function componentsOf(
  entries: readonly [z.ZodType, string][],
  io: 'input' | 'output',
  base = '#/components/schemas/',
): Record<string, Json> {
  const registry = z.registry<{ id: string }>();
  for (const [schema, id] of entries) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, {
    target: 'draft-2020-12',
    io,
    unrepresentable: 'any',
    uri: (id) => `${base}${id}`,
  });
  return Object.fromEntries(
    Object.entries(schemas).map(([id, schema]) => [id, withoutDialect(schema)]),
  );
}

/**
 * The request body of one operation. With several `sort` values, `if`/`then` ties each value to
 * its parameters schema (no `sort`, or the default, selects the default one); unlike a `oneOf`
 * per value, it states exactly what the service accepts and keeps linters' exclusivity checks
 * on `query`/`condition`, which are required.
 */
function requestSchema(operation: Operation): Json {
  const required = ['query', 'condition'];
  if (!operation.parametersOptional) required.push('parameters');
  const { sort } = operation;
  const [only] = operation.variants;
  const parametersOf = (variant: OperationVariant) =>
    ref(`${variantName(operation, variant)}Parameters`);
  // additionalProperties true, here and in each if/then, says what the service does with other
  // fields (ignores them); tools that check examples strictly (Redocly's default) read an
  // absent one as false and then reject every example.
  return {
    type: 'object',
    description: `${operation.name} (scope \`${operation.scope}\`). Other top-level fields are ignored.`,
    additionalProperties: true,
    required,
    properties: {
      query: { const: operation.query },
      condition: { const: operation.condition },
      ...(sort
        ? {
            // No `default` keyword: openapi-typescript makes a property with one required.
            sort: {
              enum: sort.values,
              description: `Selects the look-up; optional, "${sort.default}" by default.`,
            },
          }
        : {}),
      parameters:
        operation.variants.length === 1 && only
          ? parametersOf(only)
          : {
              // The union is what generators (openapi-typescript, Swagger UI) read; allOf below
              // ties each member to its `sort` value, which they do not follow.
              anyOf: operation.variants.map(parametersOf),
              description: 'One of these, as `sort` selects (see allOf).',
            },
    },
    ...(operation.variants.length > 1
      ? {
          allOf: operation.variants.map((variant) => ({
            if:
              variant.sort === sort?.default
                ? { additionalProperties: true, properties: { sort: { const: variant.sort } } }
                : {
                    additionalProperties: true,
                    required: ['sort'],
                    properties: { sort: { const: variant.sort } },
                  },
            // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then keyword.
            then: { additionalProperties: true, properties: { parameters: parametersOf(variant) } },
          })),
        }
      : {}),
  };
}

/** Request and response components of every operation, built from the operations' own schemas. */
export function operationComponents(): Record<string, Json> {
  const parameters: [z.ZodType, string][] = [];
  const requests: Record<string, Json> = {};
  for (const operation of ALL) {
    for (const variant of operation.variants) {
      parameters.push([variant.parameters, `${variantName(operation, variant)}Parameters`]);
    }
    requests[`${pascal(operation.name)}Request`] = requestSchema(operation);
  }
  const responses: [z.ZodType, string][] = [
    [topicViewSchema, 'Topic'],
    [userViewSchema, 'User'],
    [feedEventSchema, 'FeedEvent'],
    // Recursive: without a component of its own, zod leaves an unresolvable __shared $ref.
    [faqCategoryViewSchema, 'FaqCategory'],
    [serviceStatusEnvelopeSchema, 'ServiceStatusEnvelope'],
    [fieldErrorSchema, 'FieldError'],
    [errorEnvelopeSchema, 'Error'],
  ];
  for (const operation of ALL) {
    responses.push([operation.response, `${pascal(operation.name)}Data`]);
    responses.push([successEnvelope(operation.response), `${pascal(operation.name)}Envelope`]);
  }
  return {
    ...requests,
    ...componentsOf(parameters, 'input'),
    ...componentsOf(responses, 'output'),
  };
}

/** curl command lines that send the operation's examples, GET body included. */
function curlExamples(operation: Operation, serviceUrl: string, method: HttpMethod): string {
  return operation.examples
    .map((example) =>
      [
        `# ${example.summary}`,
        `curl --request ${method} '${serviceUrl}' \\`,
        `  --header 'apikey: <API_KEY>' \\`,
        ...(operation.idempotencyKey
          ? [`  --header 'Idempotency-Key: <NEW_VALUE_PER_WRITE>' \\`]
          : []),
        `  --data '${JSON.stringify(example.body)}'`,
      ].join('\n'),
    )
    .join('\n\n');
}

const GET_BODY_NOTE =
  '**GET with a JSON body** (Content-Length or chunked), as the original service did. Browsers, ' +
  '`fetch` and the clients generated from this document on top of `fetch` cannot send a body ' +
  'with GET: call it with curl (below), Node’s http module or the `deskgate/client` package.';

function sectionOf(operation: Operation, serviceUrl: string, method: HttpMethod): string {
  return [
    `### ${operation.name} — ${operation.summary}`,
    '',
    operation.description,
    '',
    ...(operation.sort
      ? [
          `\`sort\`: ${operation.sort.values.map((value) => `\`"${value}"\``).join(', ')} ` +
            `(default \`"${operation.sort.default}"\`).`,
          '',
        ]
      : []),
    ...(operation.nothingFound
      ? [
          'Nothing found → **204 No Content** with `X-Error-Code: not_found` (HTTP forbids a ' +
            'body on 204), or 404 with the envelope under DESKGATE_NOT_FOUND_STATUS=404.',
          '',
        ]
      : []),
    '```sh',
    curlExamples(operation, serviceUrl, method),
    '```',
  ].join('\n');
}

/** The operations answered on one method of the service address, in registry order. */
function operationsOn(method: HttpMethod): Operation[] {
  return ALL.filter((operation) => operation.methods.includes(method));
}

function operationId(operations: readonly Operation[], method: HttpMethod): string {
  const [only] = operations;
  if (operations.length === 1 && only) {
    return `${camel(only.name)}${method === only.methods[0] ? '' : pascal(method.toLowerCase())}`;
  }
  return `service${pascal(method.toLowerCase())}`;
}

/** The Operation Object for one method: one operation as it is, several as one told apart by query/condition. */
function methodObject(method: HttpMethod, serviceUrl: string): Json | undefined {
  const operations = operationsOn(method);
  const [first] = operations;
  if (!first) return undefined;
  const several = operations.length > 1;
  const names = operations.map((operation) => operation.name).join(', ');
  const requests = operations.map((operation) => ref(`${pascal(operation.name)}Request`));
  const envelopes = operations.map((operation) => ref(`${pascal(operation.name)}Envelope`));
  const responses: Record<string, Json> = {
    200: {
      description: several
        ? 'Success: the envelope of the operation that was called (see each one’s data).'
        : 'Success.',
      headers: {
        'X-Request-Id': HEADER_REFS.requestId,
        ...RATE_LIMIT_HEADERS,
        ...Object.fromEntries(
          operations.flatMap((operation) =>
            Object.entries(operation.responseHeaders).map(([name, header]) => [
              name,
              {
                description: header.description,
                schema: { type: 'string' },
                example: header.example,
              },
            ]),
          ),
        ),
      },
      content: json(
        several ? { anyOf: envelopes } : (envelopes[0] as Json),
        Object.fromEntries(
          operations.map((operation) => [
            operation.name,
            {
              summary: operation.name,
              value: { status: 'Success', time: 0.00042, data: operation.responseExample },
            },
          ]),
        ),
      ),
    },
  };
  const finding = operations.filter((operation) => operation.nothingFound);
  if (finding.length > 0) {
    responses[204] = {
      description:
        `Nothing found (${finding.map((operation) => operation.name).join(', ')}), the default. ` +
        'HTTP forbids a body on 204, so the code travels in X-Error-Code.',
      headers: { 'X-Error-Code': HEADER_REFS.errorCode, 'X-Request-Id': HEADER_REFS.requestId },
    };
    responses[404] = errorResponse(404);
  }
  const statuses = new Set(COMMON_ERROR_STATUSES);
  for (const operation of operations) {
    for (const code of operation.errors) statuses.add(ERROR_STATUS[code]);
  }
  for (const status of statuses) responses[status] = errorResponse(status);
  const isGet = method === 'GET';
  const intro = several
    ? `Several operations share this method of the one address; \`query\` and \`condition\` ` +
      `(and \`sort\`) in the body pick one: ${names}. The request body is exactly one of the ` +
      'schemas below; `x-deskgate-operations` maps each operation to its request, response and scope.'
    : '';
  return {
    operationId: operationId(operations, method),
    tags: [...new Set(operations.map((operation) => operation.query))],
    summary: several
      ? `${names} (GET with a JSON body)`
      : `${first.name} — ${first.summary}${method === first.methods[0] ? '' : ` (${method})`}`,
    description: [
      ...(isGet ? [GET_BODY_NOTE] : []),
      ...(intro ? [intro] : []),
      ...operations.map((operation) => sectionOf(operation, serviceUrl, method)),
    ].join('\n\n'),
    security: [{ apikey: [] }],
    parameters: [
      { $ref: '#/components/parameters/X-Request-Id' },
      ...(operations.some((operation) => operation.idempotencyKey)
        ? [{ $ref: '#/components/parameters/Idempotency-Key' }]
        : []),
    ],
    requestBody: {
      required: true,
      description:
        'Read as JSON whatever the Content-Type says (multipart/form-data → 415). ' +
        (several ? 'Told apart by `query`, `condition` and `sort`.' : ''),
      content: json(
        several ? { oneOf: requests } : (requests[0] as Json),
        Object.fromEntries(
          operations.flatMap((operation) =>
            operation.examples.map((example) => [
              `${operation.name} ${example.name}`,
              { summary: `${operation.name}: ${example.summary}`, value: example.body },
            ]),
          ),
        ),
      ),
    },
    responses: Object.fromEntries(
      Object.entries(responses).sort(([a], [b]) => Number(a) - Number(b)),
    ),
    'x-deskgate-operations': operations.map((operation) => ({
      operation: operation.name,
      scope: operation.scope,
      // The documented method first, then the others it accepts (user/add: POST, PUT).
      methods: operation.methods,
      ...(operation.sort
        ? { sort: operation.sort.values, defaultSort: operation.sort.default }
        : {}),
      request: `#/components/schemas/${pascal(operation.name)}Request`,
      response: `#/components/schemas/${pascal(operation.name)}Envelope`,
      nothingFound: operation.nothingFound,
    })),
  };
}

/** The path item of the service address: every method any operation uses. */
export function servicePathItem(serviceUrl: string): Json {
  const item: Json = {};
  for (const method of ['GET', 'POST', 'PUT', 'DELETE'] as const) {
    const object = methodObject(method, serviceUrl);
    if (object) item[method.toLowerCase()] = object;
  }
  return item;
}

/** One tag per resource (`query`), describing its operations. */
export function resourceTags(): Json[] {
  const byResource = new Map<string, Operation[]>();
  for (const operation of ALL) {
    byResource.set(operation.query, [...(byResource.get(operation.query) ?? []), operation]);
  }
  return [...byResource].map(([name, operations]) => ({
    name,
    description: operations
      .map((operation) => `\`${operation.name}\` (${operation.scope}): ${operation.summary}.`)
      .join(' '),
  }));
}

/** The scopes and the operations each one opens, for the security scheme's description. */
export function scopesDescription(): string {
  const byScope = new Map<string, string[]>();
  for (const operation of ALL) {
    byScope.set(operation.scope, [...(byScope.get(operation.scope) ?? []), operation.name]);
  }
  return [...byScope].map(([scope, names]) => `\`${scope}\` (${names.join(', ')})`).join(', ');
}
