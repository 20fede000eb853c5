import { AsyncLocalStorage } from 'node:async_hooks';

const requests = new AsyncLocalStorage<AbortSignal>();

/**
 * Runs `work` as a request's: the statements it sends are cancelled on the database when
 * `signal` aborts, its client having gone away (decision 334).
 */
export function runForRequest<T>(signal: AbortSignal, work: () => T): T {
  return requests.run(signal, work);
}

/** Transaction control: never cancelled, so that a transaction always ends (a rollback above all). */
const TRANSACTION_CONTROL = /^\s*(begin|start|commit|rollback|savepoint|release)\b/i;

/**
 * Call as statement `text` is sent: should the client of the request it runs for go away before
 * it ends, `cancel` cancels it on the database from another connection (PostgreSQL
 * pg_cancel_backend, MariaDB/MySQL KILL QUERY); the connection goes back to the pool only once
 * that is done. Returns the function to call once the statement has ended. Outside a request
 * (commands, start-up checks), for transaction control, and once the client has gone (a
 * rollback must run), nothing is watched.
 */
export function watchForClientGone(text: string, cancel: () => Promise<unknown>): () => void {
  const signal = requests.getStore();
  if (!signal || signal.aborted || TRANSACTION_CONTROL.test(text)) return () => {};
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
