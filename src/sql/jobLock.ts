import postgres from 'postgres';
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
 * Takes the session advisory lock of `job` on a connection of its own. Not a pooled one (a pool
 * may hand the session to other work or recycle it), and not postgres.js's `reserve()`: a reserved
 * connection whose server session died poisons the pool it returns to (postgres 3.4.9 then throws
 * from a timer, killing the process). Returns null when `wait` is false and another session holds it.
 */
export async function acquireJobLock(databaseUrl: string, job: string, options: { wait: boolean }): Promise<JobLock | null> {
  // No lifetime or idle limit: recycling the connection would silently drop the lock.
  const conn = postgres(databaseUrl, {
    max: 1,
    max_lifetime: null,
    idle_timeout: 0,
    onnotice: () => {},
    connection: { application_name: `prediction-ingest lock ${job}` },
  });
  let lock: { pid: number; objid: string; ok: boolean } | undefined;
  try {
    if (options.wait) await conn`select pg_advisory_lock(${JOB_LOCK_NAMESPACE}, hashtext(${job}))`;
    [lock] = await conn<{ pid: number; objid: string; ok: boolean }[]>`
      select pg_backend_pid() as pid, hashtext(${job})::oid::text as objid,
             ${options.wait} or pg_try_advisory_lock(${JOB_LOCK_NAMESPACE}, hashtext(${job})) as ok`;
  } catch (error) {
    await conn.end({ timeout: 1 });
    throw error;
  }
  if (!lock?.ok) {
    await conn.end({ timeout: 1 });
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
      // Closing the session releases its locks; an explicit unlock first frees it without waiting for the close.
      await conn`select pg_advisory_unlock(${JOB_LOCK_NAMESPACE}, hashtext(${job}))`.catch(() => {});
      await conn.end({ timeout: 2 });
    },
  };
}
