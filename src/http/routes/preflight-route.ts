import type { Cors } from '../cors.ts';
import { endWithTurn } from '../end-with-turn.ts';
import type { RouteHandler } from '../exchange.ts';

/** The service address answers a browser's CORS preflight itself, before any other work. */
export function withPreflight(cors: Cors, route: RouteHandler): RouteHandler {
  return (exchange) => {
    if (!cors.isPreflight(exchange.req)) return route(exchange);
    cors.addPreflightHeaders(exchange.req, exchange.head);
    exchange.written = endWithTurn(exchange.res, 204, exchange.head);
  };
}
