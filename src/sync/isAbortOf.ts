import { ApiRequestAbortedError } from '../api/client/index.js';

/**
 * Whether `error` is the client dropping a call because the job's `signal` was aborted: the
 * planned end of the work, after which what was fetched is still committed and the run is
 * recorded as aborted, not failed. A call dropped while the signal is still live (the client
 * itself aborted under a running job) remains a failure.
 */
export function isAbortOf(error: unknown, signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true && error instanceof ApiRequestAbortedError;
}
