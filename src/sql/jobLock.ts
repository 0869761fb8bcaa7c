import type { Sql } from '../db/connect.js';

/** Namespace of the job locks (first key of the two-int advisory lock form); the job name hashes into the second. */
const JOB_LOCK_NAMESPACE = 734_011_256;

export interface JobLock {
  /** False once the connection holding the lock is gone: the holder must stop committing. */
  readonly held: () => boolean;
  release(): Promise<void>;
}

/**
 * Takes the session advisory lock of `job` on a connection reserved for it: a session lock belongs
 * to one connection, and a pooled one might release it behind our back. Returns null when `wait`
 * is false and another process holds it.
 */
export async function acquireJobLock(sql: Sql, job: string, options: { wait: boolean }): Promise<JobLock | null> {
  const conn = await sql.reserve();
  let held = false;
  try {
    if (options.wait) {
      await conn`select pg_advisory_lock(${JOB_LOCK_NAMESPACE}, hashtext(${job}))`;
      held = true;
    } else {
      const [row] = await conn<{ ok: boolean }[]>`select pg_try_advisory_lock(${JOB_LOCK_NAMESPACE}, hashtext(${job})) as ok`;
      held = row?.ok === true;
    }
  } catch (error) {
    conn.release();
    throw error;
  }
  if (!held) {
    conn.release();
    return null;
  }
  let released = false;
  return {
    held: () => !released,
    release: async () => {
      if (released) return;
      released = true;
      try {
        await conn`select pg_advisory_unlock(${JOB_LOCK_NAMESPACE}, hashtext(${job}))`;
      } finally {
        conn.release();
      }
    },
  };
}
