import type postgres from 'postgres';

/** How long a stopped statement may take to answer its cancel before it is abandoned to the pool's close. */
const CANCEL_GRACE_MS = 5_000;

/**
 * Runs `work` on a connection reserved from `sql`, for a statement that may run long (a rebuild, a
 * count); aborting `signal` cancels it from another connection (pg_cancel_backend), so the pool
 * needs two. A statement that does not answer the cancel within CANCEL_GRACE_MS (a frozen
 * connection) is abandoned: the call rejects, and closing the pool destroys the connection.
 */
export async function onCancellableSession<T>(
  sql: postgres.Sql,
  signal: AbortSignal | undefined,
  work: (session: postgres.ReservedSql) => Promise<T>,
): Promise<T> {
  signal?.throwIfAborted();
  const session = await sql.reserve();
  try {
    const [backend] = await session<{ pid: number }[]>`select pg_backend_pid() as pid`;
    const cancel = () => sql`select pg_cancel_backend(${backend!.pid})`.catch(() => {});
    return await unlessStopped(work(session), signal, cancel);
  } finally {
    session.release();
  }
}

/** `work`, unless `signal` aborts first: then `cancel` is called, and the call rejects once `work` has settled, or after CANCEL_GRACE_MS. */
async function unlessStopped<T>(work: Promise<T>, signal: AbortSignal | undefined, cancel: () => unknown): Promise<T> {
  let onAbort: (() => void) | undefined;
  const stopped = new Promise<never>((_, reject) => {
    onAbort = () => {
      cancel();
      const fail = () => reject(new Error(`stopped: the statement was cancelled`, { cause: signal?.reason }));
      work.then(fail, fail);
      setTimeout(fail, CANCEL_GRACE_MS).unref();
    };
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([work, stopped]);
  } finally {
    if (onAbort) signal?.removeEventListener('abort', onAbort);
    // Whichever lost the race settles later, with nobody waiting: not an unhandled rejection.
    work.catch(() => {});
    stopped.catch(() => {});
  }
}
