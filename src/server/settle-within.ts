/**
 * Waits for `work` at most `ms`. Resolves to the outcome, or to 'timeout' when `ms` passed
 * first; `work` is left to finish (or not) on its own. For closing connections to a dependency
 * that may have stopped answering: a shutdown must not wait for it forever.
 */
export async function settleWithin<T>(
  work: Promise<T>,
  ms: number,
): Promise<
  { status: 'done'; value: T } | { status: 'failed'; error: unknown } | { status: 'timeout' }
> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<{ status: 'timeout' }>((resolve) => {
    timer = setTimeout(() => resolve({ status: 'timeout' }), Math.max(0, ms));
  });
  try {
    return await Promise.race([
      work.then(
        (value) => ({ status: 'done' as const, value }),
        (error: unknown) => ({ status: 'failed' as const, error }),
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
