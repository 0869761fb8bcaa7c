import type { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';

import type { Queryable } from '../sql/core/queryable.js';

/** How long a stopped COPY may take to end before the transaction is left to its own end. */
const COPY_END_WAIT_MS = 30_000;

/**
 * Stops a COPY ... TO STDOUT whose reader gave up (an export stopped, or failed, mid-table), so
 * that its transaction can end: cancels the server's side (which reaches the server only with
 * patches/postgres+3.4.9.patch: postgres.js took a COPY whose stream it had handed out for done),
 * drops the stream, and waits until the connection has read the COPY's end (its CopyDone, or the
 * error the cancel brings). Until then postgres.js
 * refuses every statement with COPY_IN_PROGRESS, the transaction's ROLLBACK included: the
 * connection then went back to its pool still inside the transaction, and the next export waited
 * for it for good. A refused statement is never sent, so asking again costs nothing; any other
 * answer, an error of the aborted transaction included, means the COPY is over.
 */
export async function stopCopyOut(tx: Queryable, query: { cancel: () => unknown }, stream: Readable): Promise<void> {
  query.cancel();
  stream.destroy();
  resumeConnection(stream);
  const startMs = Date.now();
  while (Date.now() - startMs < COPY_END_WAIT_MS) {
    try {
      await tx`select 1`;
      return;
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'COPY_IN_PROGRESS') return;
      await sleep(5);
    }
  }
}

/**
 * postgres.js 3.4.9 pauses the connection's socket whenever the COPY stream's buffer is full, and
 * resumes it only when the stream asks for more. When the last data and the end of the COPY arrive
 * together while it is paused, the stream ends and nothing resumes the socket: the answer that
 * follows is never read and the connection hangs (porsager/postgres pull request 1016, not
 * released). The stream's own read function is what resumes it; calling it once more after the end
 * is harmless when the socket was not paused.
 */
export function resumeConnection(stream: Readable): void {
  (stream as Readable & { _read: (size: number) => void })._read(0);
}
