import type * as z from 'zod';
import type { Config } from '../config.ts';
import type { AnyEntity, DataAccess, Entity } from '../data/entity.ts';
import type { ApiKey, Scope } from '../domain.ts';
import { DeskgateError, type ErrorCode } from '../errors.ts';
import type { Logger } from '../logger.ts';
import { invalidParametersMessage } from '../messages.ts';
import { validateParameters } from './validate-parameters.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** The methods of a write: POST documented, PUT accepted too, as the original did. */
export const WRITE_METHODS = ['POST', 'PUT'] as const;

/** The methods of a delete: DELETE as the original, POST accepted too. */
export const DELETE_METHODS = ['DELETE', 'POST'] as const;

/** An operation's `uses`: the entities (src/data/<entity>/) its handler reads or writes. */
export type Uses = readonly [AnyEntity, ...AnyEntity[]];

/**
 * What a handler gets to do its work. `data(entity)` gives an entity's data functions on the
 * store's database; the type checker accepts only the entities the operation names in `uses`,
 * which is how osTicket mode knows the tables, columns and grants each operation needs.
 */
export interface OperationContext<Used extends readonly AnyEntity[] = readonly AnyEntity[]> {
  data: Used extends Uses ? <Api>(entity: Entity<Api> & Used[number]) => Api : DataAccess;
  config: Readonly<Config>;
  /** The operation's name, `query/condition`. */
  operation: string;
  apiKey: ApiKey;
  clientIp: string;
  requestId: string;
  /** The `Idempotency-Key` header, when the caller sent one. */
  idempotencyKey: string | undefined;
  logger: Logger;
  /** Adds a header to the success answer (ticket/add: `X-Ticket-Number`). */
  addResponseHeader(name: string, value: string): void;
}

/**
 * The parameters schemas of an operation, keyed by the value of the top-level `sort` field that
 * selects each (as in the original service: `sort: "name"` looks a topic up by name). An
 * operation without a `sort` field has the one key `*`.
 */
export type ParameterSets = Readonly<Record<string, z.ZodType>>;

/** What a handler receives: the `sort` the caller picked and that variant's validated parameters. */
export type Selection<Sets extends ParameterSets> = {
  [Sort in keyof Sets & string]: { sort: Sort; parameters: z.output<Sets[Sort]> };
}[keyof Sets & string];

/** What a handler resolves to: the envelope's `data`, or `undefined` for "nothing found" where declared. */
export type Outcome<
  Response extends z.ZodType,
  NothingFound extends boolean,
> = NothingFound extends true ? z.output<Response> | undefined : z.output<Response>;

/** One way to call an operation, for the OpenAPI document, the docs and the tests. */
export interface OperationExample<Sets extends ParameterSets> {
  /** Short name of the example, e.g. `by-name`. */
  name: string;
  summary: string;
  sort?: keyof Sets & string;
  /** `parameters` as a caller sends them; omitted for an operation whose parameters are optional. */
  parameters?: Readonly<Record<string, unknown>>;
}

/**
 * Everything about one operation, in its own folder: the (query, condition) pair that selects it,
 * methods and scope, the accepted `sort` values and the parameters schema each selects, the
 * response's `data` schema, the docs text and examples, whether "nothing found" is an answer
 * (204, or 404 with DESKGATE_NOT_FOUND_STATUS=404), and a handler whose result the type checker
 * ties to the response schema.
 */
export interface OperationDefinition<
  Sets extends ParameterSets,
  Response extends z.ZodType,
  NothingFound extends boolean,
  Used extends Uses,
> {
  query: string;
  condition: string;
  /** The first is the documented one; the others are accepted too (user/add: PUT). */
  methods: readonly [HttpMethod, ...HttpMethod[]];
  scope: Scope;
  /** Scopes that admit a key too, instead of `scope` (events/since: `users:read`). */
  otherScopes?: readonly Scope[];
  /** One line for the document's summary and the client's JSDoc. */
  summary: string;
  /** Markdown for the document: what it does and what is special about it. */
  description: string;
  parameters: Sets;
  /**
   * The `sort` value used when the body has none. Absent: the operation takes no `sort` and
   * ignores one (its `parameters` has the one key `*`).
   */
  defaultSort?: keyof Sets & string;
  /** Whether `parameters` may be left out of the body (then `{}` is validated). */
  parametersOptional?: boolean;
  /** The entities the handler reads or writes (src/data/<entity>/), e.g. `[topics]`. */
  uses: Used;
  /** The schema of the success envelope's `data`. */
  response: Response;
  /** A `data` the operation really returns, for the document. */
  responseExample: z.output<Response>;
  examples: readonly [OperationExample<Sets>, ...OperationExample<Sets>[]];
  /** True when the handler may find nothing: `undefined` then becomes the 204 (or 404). */
  nothingFound: NothingFound;
  /** Whether the operation honours an `Idempotency-Key` header. */
  idempotencyKey?: boolean;
  /** Error codes particular to this operation (beyond the ones every call can get). */
  errors?: readonly ErrorCode[];
  /** Headers its success answer adds (ticket/add: `X-Ticket-Number`), for the document. */
  responseHeaders?: Readonly<Record<string, ResponseHeader>>;
  /** It answers agent-internal text: the key needs the notes grant too (tasks, decision 322). */
  needsNotes?: boolean;
  handle(
    selection: Selection<Sets>,
    context: OperationContext<Used>,
  ): Promise<Outcome<Response, NothingFound>>;
}

/** A header an operation's success answer carries, as the document declares it. */
export interface ResponseHeader {
  description: string;
  example: string;
}

/** One parameters schema of an operation, as the edge and the document see it. */
export interface OperationVariant {
  /** The `sort` value that selects it; undefined for an operation without `sort`. */
  sort: string | undefined;
  parameters: z.ZodType;
}

/**
 * An operation as the registry holds it: its definition with the types erased, plus `run`, the
 * one typed path from a parsed body to the handler. The edge, the OpenAPI builder and the
 * dispatch table only read this shape, so they stay generic over the registry.
 */
export interface Operation {
  readonly name: string;
  readonly query: string;
  readonly condition: string;
  readonly methods: readonly HttpMethod[];
  readonly scope: Scope;
  /** Scopes that admit a key too, instead of `scope`. */
  readonly otherScopes: readonly Scope[];
  readonly summary: string;
  readonly description: string;
  readonly variants: readonly OperationVariant[];
  /** The accepted `sort` values and the default; undefined when the operation takes none. */
  readonly sort: { values: readonly string[]; default: string } | undefined;
  readonly parametersOptional: boolean;
  readonly uses: readonly AnyEntity[];
  readonly response: z.ZodType;
  readonly responseExample: unknown;
  readonly examples: readonly { name: string; summary: string; body: Record<string, unknown> }[];
  readonly nothingFound: boolean;
  readonly idempotencyKey: boolean;
  readonly errors: readonly ErrorCode[];
  readonly responseHeaders: Readonly<Record<string, ResponseHeader>>;
  readonly needsNotes: boolean;
  /**
   * Picks the variant by `sort`, validates `parameters` (every problem at once) and runs the
   * handler. Resolves to the envelope's `data`, or undefined when nothing was found.
   */
  run(body: Readonly<Record<string, unknown>>, context: OperationContext): Promise<unknown>;
}

/**
 * An operation as defineOperation returns it: the registry's shape, plus the schemas' own types,
 * so the client's generated types can be checked against each operation of the registry without
 * naming any (test/client/client-types.test.ts).
 */
export type TypedOperation<Sets extends ParameterSets, Response extends z.ZodType> = Operation & {
  /** The parameters schema of each `sort` value (`*` for an operation without one). */
  readonly parameterSets: Sets;
  readonly response: Response;
};

/** The key of the one parameters schema of an operation that takes no `sort`. */
export const NO_SORT = '*';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function readSort(
  body: Readonly<Record<string, unknown>>,
  sorts: readonly string[],
  fallback: string | undefined,
): string {
  if (fallback === undefined) return NO_SORT;
  if (body.sort === undefined) return fallback;
  if (typeof body.sort === 'string' && sorts.includes(body.sort)) return body.sort;
  const allowed = sorts.map((s) => JSON.stringify(s)).join(' or ');
  throw new DeskgateError(
    'invalid_request',
    `Invalid request: sort must be ${allowed} when given.`,
  );
}

/**
 * The error for a body without `parameters`: that they are required, and what an empty object
 * lacks (sla/all: `start_date`, `end_date`), so the caller learns what to send in one answer.
 */
function missingParameters(schema: z.ZodType, name: string): DeskgateError {
  const missing = { field: 'parameters', message: 'is required' };
  try {
    validateParameters(schema, {}, name);
  } catch (error) {
    if (error instanceof DeskgateError && error.errors) {
      const errors = [missing, ...error.errors];
      const problems = errors.map((e) => `${e.field} ${e.message}`);
      return new DeskgateError('invalid_parameters', invalidParametersMessage(problems), {
        errors,
      });
    }
    throw error;
  }
  return new DeskgateError(
    'invalid_parameters',
    invalidParametersMessage(['parameters is required']),
    {
      errors: [missing],
    },
  );
}

/**
 * Turns an operation's definition into what the registry holds. The type checker demands every
 * part of the definition, and ties the handler's result to the response schema.
 */
export function defineOperation<
  const Sets extends ParameterSets,
  Response extends z.ZodType,
  NothingFound extends boolean,
  const Used extends Uses,
>(
  definition: OperationDefinition<Sets, Response, NothingFound, Used>,
): TypedOperation<Sets, Response> {
  const name = `${definition.query}/${definition.condition}`;
  const sorts = Object.keys(definition.parameters);
  if (definition.defaultSort === undefined && (sorts.length !== 1 || sorts[0] !== NO_SORT)) {
    throw new Error(`${name}: without defaultSort, parameters must have the one key "${NO_SORT}"`);
  }
  const fallback = definition.defaultSort;
  return {
    name,
    query: definition.query,
    condition: definition.condition,
    methods: definition.methods,
    scope: definition.scope,
    otherScopes: definition.otherScopes ?? [],
    summary: definition.summary,
    description: definition.description,
    variants: sorts.map((sort) => ({
      sort: fallback === undefined ? undefined : sort,
      parameters: definition.parameters[sort] as z.ZodType,
    })),
    sort: fallback === undefined ? undefined : { values: sorts, default: fallback },
    parameterSets: definition.parameters,
    parametersOptional: definition.parametersOptional ?? false,
    uses: definition.uses,
    response: definition.response,
    responseExample: definition.responseExample,
    examples: definition.examples.map((example) => ({
      name: example.name,
      summary: example.summary,
      body: {
        query: definition.query,
        condition: definition.condition,
        ...(example.sort === undefined ? {} : { sort: example.sort }),
        ...(example.parameters === undefined ? {} : { parameters: example.parameters }),
      },
    })),
    nothingFound: definition.nothingFound,
    idempotencyKey: definition.idempotencyKey ?? false,
    responseHeaders: definition.responseHeaders ?? {},
    needsNotes: definition.needsNotes ?? false,
    errors: definition.errors ?? [],
    async run(body, context) {
      const sort = readSort(body, sorts, fallback);
      const schema = definition.parameters[sort] as z.ZodType;
      let { parameters } = body;
      if (parameters === undefined) {
        if (!definition.parametersOptional) throw missingParameters(schema, name);
        parameters = {};
      }
      if (!isObject(parameters)) {
        throw new DeskgateError('invalid_parameters', '"parameters" must be a JSON object.', {
          errors: [{ field: 'parameters', message: 'must be a JSON object' }],
        });
      }
      const selection = {
        sort,
        parameters: validateParameters(schema, parameters, name),
      } as Selection<Sets>;
      return definition.handle(selection, context);
    },
  };
}
