import type { Sql } from '../db/connect.js';
import type { WriteFence } from './acquireWriteLock.js';

/** Namespace of the job locks (first key of the two-int advisory lock form); the job name hashes into the second. */
const JOB_LOCK_NAMESPACE = 734_011_256;

export class JobLockLostError extends Error {
  override name = 'JobLockLostError';
}

export interface JobLock {
  /** Throws JobLockLostError inside a write transaction once the lock is no longer ours. */
  readonly fence: WriteFence;
  release(): Promise<void>;
}

/**
 * Takes the session advisory lock of `job` on a connection reserved for it: a session lock belongs
 * to one connection, and a pooled one might release it behind our back. Returns null when `wait`
 * is false and another process holds it.
 */
export async function acquireJobLock(sql: Sql, job: string, options: { wait: boolean }): Promise<JobLock | null> {
  const conn = await sql.reserve();
  let lock: { pid: number; objid: string; ok: boolean } | undefined;
  try {
    if (options.wait) await conn`select pg_advisory_lock(${JOB_LOCK_NAMESPACE}, hashtext(${job}))`;
    [lock] = await conn<{ pid: number; objid: string; ok: boolean }[]>`
      select pg_backend_pid() as pid, hashtext(${job})::oid::text as objid,
             ${options.wait} or pg_try_advisory_lock(${JOB_LOCK_NAMESPACE}, hashtext(${job})) as ok`;
  } catch (error) {
    conn.release();
    throw error;
  }
  if (!lock?.ok) {
    conn.release();
    return null;
  }
  const { pid, objid } = lock;
  let released = false;
  return {
    fence: async (tx) => {
      const [row] = await tx<{ held: boolean }[]>`
        select exists (select 1 from pg_locks where locktype = 'advisory' and pid = ${pid} and granted
          and classid = ${JOB_LOCK_NAMESPACE}::oid and objid = ${objid}::oid and objsubid = 2) as held`;
      if (released || !row?.held) throw new JobLockLostError(`The lock of job "${job}" was lost: not committing`);
    },
    release: async () => {
      if (released) return;
      released = true;
      try {
        await conn`select pg_advisory_unlock(${JOB_LOCK_NAMESPACE}, hashtext(${job}))`;
      } catch {
        // The connection is gone, and the lock with it.
      } finally {
        conn.release();
      }
    },
  };
}
