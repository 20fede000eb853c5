import { AsyncLocalStorage } from 'node:async_hooks';

const requests = new AsyncLocalStorage<AbortSignal>();

/** A statement not sent: the client of the request it was for had gone (answered 503, to no one). */
export class ClientGoneError extends Error {
  override name = 'ClientGoneError';
  constructor() {
    super('the client went away before the statement was sent');
  }
}

/**
 * Runs `work` as a request's: the statements it sends are cancelled on the database when
 * `signal` aborts, its client having gone away (decision 334).
 */
export function runForRequest<T>(signal: AbortSignal, work: () => T): T {
  return requests.run(signal, work);
}

/**
 * Call as a statement is sent: should the client of the request it runs for go away before it
 * ends, `cancel` cancels it on the database from another connection (PostgreSQL
 * pg_cancel_backend, MariaDB/MySQL KILL QUERY); `cancel` checks that the connection still runs
 * this statement. Returns the function to call once it has ended. Outside a request (commands,
 * start-up checks) nothing is watched; once the client has gone, the statement is not sent.
 */
export function watchForClientGone(cancel: () => Promise<unknown>): () => void {
  const signal = requests.getStore();
  if (!signal) return () => {};
  if (signal.aborted) throw new ClientGoneError();
  let running = true;
  const onAbort = () => {
    if (running) cancel().catch(() => {});
  };
  signal.addEventListener('abort', onAbort, { once: true });
  return () => {
    running = false;
    signal.removeEventListener('abort', onAbort);
  };
}
