import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HeaderList } from './header-list.ts';
import type { CallRecord } from './service-call.ts';

/** One request and what its answer is made with, as the route handlers see it. */
export interface Exchange {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly requestId: string;
  /** The headers of a JSON answer, whichever it is; the other answers set X-Request-Id themselves. */
  readonly head: HeaderList;
  readonly startedAt: number;
  readonly clientIp: string;
  /** What the request line says about the call, filled in as it proceeds. */
  readonly record: CallRecord;
  /** Settles once an answer sent with the loop's turn is written (end-with-turn.ts). */
  written: Promise<void> | undefined;
}

/**
 * Answers one kind of address. It throws a DeskgateError for an error answer (the request handler
 * writes it); nothing after its answer may throw, or the error would be answered a second time.
 */
export type RouteHandler = (exchange: Exchange) => Promise<void> | void;
