/**
 * A database operation that got no answer in time and was abandoned. Over a frozen connection
 * (the server stopped answering, the socket stays open) nothing on the server side can end a
 * statement, and postgres.js has no query timeout: only the client's own deadline does.
 */
export class DatabaseDeadlineError extends Error {
  override name = 'DatabaseDeadlineError';

  constructor(
    /** What was abandoned, e.g. "write transaction". */
    readonly operation: string,
    readonly deadlineMs: number,
  ) {
    super(`no answer from the database within ${formatMs(deadlineMs)} (${operation}); abandoned`);
  }
}

/**
 * Runs `work` and rejects with a DatabaseDeadlineError once `deadlineMs` have passed without it
 * settling. The work itself is not stopped (a statement cannot be recalled from a hung
 * connection): it gets a signal, aborted at the deadline, to refuse to go on, and its late outcome
 * is ignored. The connection it holds stays busy until its pool is closed.
 */
export async function withDeadline<T>(operation: string, deadlineMs: number, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const expired = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const running = work(expired.signal);
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      expired.abort();
      reject(new DatabaseDeadlineError(operation, deadlineMs));
    }, deadlineMs);
  });
  try {
    return await Promise.race([running, deadline]);
  } finally {
    clearTimeout(timer);
    // Settles, if ever, after the caller moved on: no unhandled rejection from a late failure.
    running.catch(() => {});
  }
}

function formatMs(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}
