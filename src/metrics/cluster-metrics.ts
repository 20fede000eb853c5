import cluster from 'node:cluster';
import { AggregatorRegistry } from 'prom-client';

const REQUEST = 'deskgate:metrics-request';
const REPLY = 'deskgate:metrics-reply';
/** Longer than prom-client's own 5 s limit for the workers' answers, so that one reports first. */
const REPLY_TIMEOUT_MS = 8_000;

interface MetricsRequest {
  type: typeof REQUEST;
  id: number;
}

interface MetricsReply {
  type: typeof REPLY;
  id: number;
  text?: string;
  error?: string;
}

function isMessage<T extends { type: string }>(message: unknown, type: T['type']): message is T {
  return typeof message === 'object' && message !== null && (message as T).type === type;
}

/**
 * In the primary: answers a worker's request for the metrics of the whole group. Workers share
 * the listening socket, so whichever worker a scrape reaches asks here, and prom-client's
 * AggregatorRegistry collects and combines every worker's registry.
 */
export function answerMetricsRequests(): void {
  const aggregator = new AggregatorRegistry();
  cluster.on('message', (worker, message: unknown) => {
    if (!isMessage<MetricsRequest>(message, REQUEST)) return;
    const reply = (answer: Omit<MetricsReply, 'type' | 'id'>) => {
      if (worker.isConnected()) worker.send({ type: REPLY, id: message.id, ...answer });
    };
    aggregator.clusterMetrics().then(
      (text) => reply({ text }),
      (error: unknown) => reply({ error: error instanceof Error ? error.message : String(error) }),
    );
  });
}

let nextId = 0;
const waiting = new Map<number, (reply: MetricsReply) => void>();

function listenForReplies(): void {
  process.on('message', (message: unknown) => {
    if (isMessage<MetricsReply>(message, REPLY)) waiting.get(message.id)?.(message);
  });
}

/** In a worker: the whole group's metrics text, from the primary. */
export function askPrimaryForMetrics(): Promise<string> {
  if (nextId === 0) listenForReplies();
  const id = ++nextId;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      waiting.delete(id);
      reject(new Error('the primary did not answer the request for metrics'));
    }, REPLY_TIMEOUT_MS);
    waiting.set(id, (reply) => {
      waiting.delete(id);
      clearTimeout(timer);
      if (reply.text !== undefined) resolve(reply.text);
      else reject(new Error(`collecting the workers' metrics failed: ${reply.error}`));
    });
    const request: MetricsRequest = { type: REQUEST, id };
    process.send?.(request, undefined, {}, (error: Error | null) => {
      if (!error) return;
      waiting.delete(id);
      clearTimeout(timer);
      reject(error);
    });
  });
}
