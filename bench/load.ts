import autocannon from 'autocannon';

export interface LoadOptions {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  /** A constant body, or a function that makes a new one per request. */
  body: string | ((n: number) => string);
  connections: number;
  seconds?: number;
  amount?: number;
  /** Fixed request rate (requests/s over all connections). */
  rate?: number;
  /** The status every request should get. */
  expectStatus: number;
}

export interface LoadResult {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  max: number;
  /** Connection errors, timeouts, and responses with another status than expected. */
  errors: number;
  total: number;
}

/** One autocannon run: keep-alive connections, no pipelining. */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  let n = 0;
  const { body } = options;
  const result = await autocannon({
    url: options.url,
    connections: options.connections,
    pipelining: 1,
    ...(options.amount ? { amount: options.amount } : { duration: options.seconds ?? 5 }),
    ...(options.rate ? { overallRate: options.rate } : {}),
    requests: [
      {
        method: options.method,
        headers: { 'content-type': 'application/json', ...options.headers },
        ...(typeof body === 'string'
          ? { body }
          : { setupRequest: (request) => ({ ...request, body: body(n++) }) }),
      },
    ],
  });
  const stats = result.statusCodeStats ?? {};
  const total = Object.values(stats).reduce((sum, s) => sum + (s?.count ?? 0), 0);
  const expected = stats[String(options.expectStatus) as `${number}`]?.count ?? 0;
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    errors: result.errors + result.timeouts + (total - expected),
    total,
  };
}
