import type { RouteHandler } from '../exchange.ts';
import type { ReferenceRoutes } from '../openapi/reference-routes.ts';

/** /openapi.json and /docs: the document built once per process (openapi/reference-routes.ts). */
export function makeReferenceRoute(reference: ReferenceRoutes): RouteHandler {
  return ({ req, res, requestId }) => {
    res.setHeader('X-Request-Id', requestId);
    reference.send(req, res);
  };
}
