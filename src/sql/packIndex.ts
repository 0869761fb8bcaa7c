import type postgres from 'postgres';
import { PACKED_INDEX_OPTION } from './selectUnpackedPartitions.js';

/** How long a stopped rebuild may take to answer its cancel before it is abandoned to the pool's close. */
const CANCEL_GRACE_MS = 5_000;

/**
 * Rebuilds one index of a closed month's partition with REINDEX CONCURRENTLY, which fills its
 * leaves to the B-tree default of 90 % (a key written month-long across markets leaves them about
 * half full), then marks it packed (markPacked). Reads and writes of the partition go on
 * meanwhile. Not in a transaction (REINDEX CONCURRENTLY refuses one), so the marker comes only once
 * the new index is in place: an interrupted rebuild leaves an invalid copy, which
 * dropInvalidPartitionIndexes removes, and an index packed again.
 *
 * The rebuild runs on a connection reserved from `sql`; aborting `signal` cancels it from another
 * one (pg_cancel_backend), so the pool needs two connections. A rebuild that does not answer the
 * cancel within CANCEL_GRACE_MS (a frozen connection) is abandoned: the call rejects, and closing
 * the pool destroys the connection. Returns the index's new size in bytes.
 */
export async function packIndex(sql: postgres.Sql, index: string, signal?: AbortSignal): Promise<number> {
  const session = await sql.reserve();
  try {
    const [backend] = await session<{ pid: number }[]>`select pg_backend_pid() as pid`;
    const cancel = () => sql`select pg_cancel_backend(${backend!.pid})`.catch(() => {});
    await unlessStopped(session.unsafe(`reindex index concurrently ${index}`).execute(), signal, cancel);
  } finally {
    session.release();
  }
  return markPacked(sql, index);
}

/** Marks `index` packed and returns its size in bytes. */
export async function markPacked(sql: postgres.Sql, index: string): Promise<number> {
  // Past its build the fill factor only guides page splits: 100 for an index that stays as it is.
  await sql.unsafe(`alter index ${index} set (${PACKED_INDEX_OPTION})`);
  const [row] = await sql<{ bytes: number }[]>`select pg_relation_size(${index}::regclass)::float8 as bytes`;
  return row!.bytes;
}

/** `work`, unless `signal` aborts first: then `cancel` is called, and the call rejects once `work` has settled, or after CANCEL_GRACE_MS. */
async function unlessStopped(work: PromiseLike<unknown>, signal: AbortSignal | undefined, cancel: () => unknown): Promise<void> {
  const running = Promise.resolve(work);
  let onAbort: (() => void) | undefined;
  const stopped = new Promise<never>((_, reject) => {
    onAbort = () => {
      cancel();
      const fail = () => reject(new Error(`stopped: the rebuild was cancelled`, { cause: signal?.reason }));
      running.then(fail, fail);
      setTimeout(fail, CANCEL_GRACE_MS).unref();
    };
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
  });
  try {
    await Promise.race([running, stopped]);
  } finally {
    if (onAbort) signal?.removeEventListener('abort', onAbort);
    // Whichever lost the race settles later, with nobody waiting: not an unhandled rejection.
    running.catch(() => {});
    stopped.catch(() => {});
  }
}
