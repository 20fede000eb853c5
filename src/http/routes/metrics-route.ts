import { DeskgateError } from '../../errors.ts';
import type { Metrics } from '../../metrics/metrics.ts';
import type { Exchange, RouteHandler } from '../exchange.ts';

/**
 * /metrics, without the key check of the service address: keep it private at the proxy or
 * network level, or turn it off (docs/monitoring.md).
 */
export function makeMetricsRoute(metrics: Metrics | undefined): RouteHandler {
  if (!metrics) {
    return () => {
      throw new DeskgateError('not_found', 'Metrics are turned off (DESKGATE_METRICS=false).');
    };
  }
  return async function answerMetrics({ res, requestId }: Exchange): Promise<void> {
    // Rendered before the head is written: a failed collection still gets its 500.
    const text = await metrics.render();
    res.writeHead(200, { 'X-Request-Id': requestId, 'Content-Type': metrics.contentType });
    res.end(text);
  };
}
