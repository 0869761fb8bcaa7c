import { errorChain } from './errorChain.js';

/** The error of `error`'s cause chain that carries SQLSTATE `code`, if any. */
export function withSqlState(error: unknown, code: string): Error | undefined {
  for (const e of errorChain(error)) {
    if ((e as { code?: unknown }).code === code) return e;
  }
  return undefined;
}

/** SQLSTATE of a lock not granted within lock_timeout. */
export const LOCK_NOT_AVAILABLE = '55P03';
/** SQLSTATE of a statement cancelled by a cancel request or by statement_timeout. */
export const QUERY_CANCELED = '57014';
/** SQLSTATE of a transaction or statement chosen as a deadlock's victim. */
export const DEADLOCK_DETECTED = '40P01';
/** SQLSTATE of a relation that does not exist (dropped since it was looked up). */
export const UNDEFINED_TABLE = '42P01';
