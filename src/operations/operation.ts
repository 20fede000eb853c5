import type { z } from 'zod';
import type { Config } from '../config.ts';
import type { Store } from '../data/store.ts';
import type { ApiKey, Scope } from '../domain.ts';
import type { Logger } from '../logger.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT';

export interface OperationContext {
  store: Store;
  config: Readonly<Config>;
  apiKey: ApiKey;
  clientIp: string;
  requestId: string;
  /** The `Idempotency-Key` header, when the caller sent one. */
  idempotencyKey: string | undefined;
  logger: Logger;
}

/**
 * One operation of the interface: the (query, condition) pair that selects it, the methods and
 * scope it needs, the schema of its `parameters`, and its handler. A handler returns the
 * envelope's `data`, or throws a DeskgateError.
 */
export interface Operation<Parameters extends z.ZodType = z.ZodType> {
  query: string;
  condition: string;
  methods: readonly HttpMethod[];
  scope: Scope;
  parameters: Parameters;
  /** Checks top-level body fields other than query/condition/parameters; returns a problem or undefined. */
  checkBody?(body: Readonly<Record<string, unknown>>): string | undefined;
  handle(parameters: z.output<Parameters>, context: OperationContext): Promise<unknown>;
}

export function defineOperation<Parameters extends z.ZodType>(
  operation: Operation<Parameters>,
): Operation<Parameters> {
  return operation;
}
