import type { Queryable } from '../core/queryable.js';

const INSUFFICIENT_PRIVILEGE = '42501';

/**
 * Ends the session `pid` (its transaction rolls back, its locks are released). False when this
 * role may not: only a superuser, a member of the session's role or of pg_signal_backend may.
 * Call it outside a transaction: the refusal is an error.
 */
export async function terminateSession(sql: Queryable, pid: number): Promise<boolean> {
  try {
    const [row] = await sql<{ ok: boolean }[]>`select pg_terminate_backend(${pid}::int) as ok`;
    return row?.ok === true;
  } catch (error) {
    if ((error as { code?: unknown }).code === INSUFFICIENT_PRIVILEGE) return false;
    throw error;
  }
}
