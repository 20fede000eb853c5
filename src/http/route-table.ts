import type { IncomingMessage } from 'node:http';
import type { RouteHandler } from './exchange.ts';
import { requestPath } from './request-path.ts';

/** The kinds of address; a request's kind names it in the duration metric when no operation does. */
export type RouteName = 'service' | 'healthz' | 'readyz' | 'metrics' | 'reference' | 'none';

export interface Route {
  readonly name: RouteName;
  readonly handle: RouteHandler;
}

/** Each address's route, by exact path; any other path gets `otherwise`. */
export function makeRouteTable(
  routes: readonly (readonly [path: string, route: Route])[],
  otherwise: Route,
): (req: IncomingMessage) => Route {
  const byPath = new Map(routes);
  return (req) => byPath.get(requestPath(req)) ?? otherwise;
}
