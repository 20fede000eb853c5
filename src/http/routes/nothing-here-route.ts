import type { Config } from '../../config.ts';
import { DeskgateError } from '../../errors.ts';
import type { RouteHandler } from '../exchange.ts';

/** Any other path: a 404 that names the service address. */
export function makeNothingHereRoute(
  config: Pick<Config, 'basePath' | 'servicePaths'>,
): RouteHandler {
  const message = `Nothing here; the service address is ${config.servicePaths.map((path) => `${config.basePath}${path}`).join(' or ')}.`;
  return () => {
    throw new DeskgateError('not_found', message);
  };
}
