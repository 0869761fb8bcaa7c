import { connect, type Database } from '../db/connect.js';

/**
 * The pool packClosedPartitions needs: the `maintenance` role's timeouts, and two connections,
 * one for the rebuild and one to cancel it. It connects only once something is to be packed.
 */
export function connectPacker(url: string): Database {
  return connect(url, { max: 2, role: 'maintenance' });
}
