import { selectDatabaseClock } from '../sql/admin/selectDatabaseClock.js';
import { ClockSkewError } from './ClockSkewError.js';
import type { Sql } from './connect.js';
import { withStatementDeadline } from './withStatementDeadline.js';

/** How far the host clock may be from the database's unless PREDICTION_CLOCK_TOLERANCE_SEC says otherwise. */
export const DEFAULT_CLOCK_TOLERANCE_MS = 5_000;

export interface ClockCheckOptions {
  /** Largest accepted distance between the two clocks. Default DEFAULT_CLOCK_TOLERANCE_MS. */
  toleranceMs?: number;
  /** The host's wall clock, epoch ms. Default Date.now. */
  hostNowMs?: () => number;
  /** A monotonic clock in ms. Default performance.now. */
  monotonicMs?: () => number;
}

/**
 * Reads the database's clock, checks the host's against it, and returns the database's clock as
 * carried on by the host's monotonic one: the job's one clock (observation times, months ahead,
 * retention). A host clock stepped later in the run changes nothing; one already further from the
 * database's than `toleranceMs` (beyond half the round trip, the uncertainty of the reading) fails
 * with a ClockSkewError before anything is written.
 */
export async function checkedClock(sql: Sql, options: ClockCheckOptions = {}): Promise<() => Date> {
  const toleranceMs = options.toleranceMs ?? DEFAULT_CLOCK_TOLERANCE_MS;
  const hostNowMs = options.hostNowMs ?? Date.now;
  const monotonicMs = options.monotonicMs ?? (() => performance.now());
  const hostBefore = hostNowMs();
  const sentAt = monotonicMs();
  const databaseAt = (await withStatementDeadline(sql, 'reading the database clock', () => selectDatabaseClock(sql))).getTime();
  const answeredAt = monotonicMs();
  const hostAfter = hostNowMs();
  const halfRoundTripMs = (answeredAt - sentAt) / 2;
  const offsetMs = (hostBefore + hostAfter) / 2 - databaseAt;
  if (Math.abs(offsetMs) > toleranceMs + halfRoundTripMs) throw new ClockSkewError(Math.round(offsetMs), toleranceMs);
  const readAt = sentAt + halfRoundTripMs;
  return () => new Date(databaseAt + (monotonicMs() - readAt));
}
