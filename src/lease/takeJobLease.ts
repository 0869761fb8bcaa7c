import type postgres from 'postgres';

import { withStatementDeadline } from '../db/withStatementDeadline.js';
import { acquireLease } from '../sql/coordination/acquireLease.js';
import type { WriteFence } from '../sql/coordination/acquireWriteLock.js';
import { checkLease } from '../sql/coordination/checkLease.js';
import { releaseLease } from '../sql/coordination/releaseLease.js';
import { renewLease } from '../sql/coordination/renewLease.js';
import { LeaseLostError } from './LeaseLostError.js';

/** Lease TTL unless configured (PREDICTION_LEASE_TTL_SEC): how long a crashed holder keeps a job from running elsewhere. */
export const DEFAULT_LEASE_TTL_SEC = 30;

/** Longest a release waits for the database: a stop must not hang on a database that stopped answering. */
const RELEASE_WAIT_MS = 5_000;

export interface LeaseOptions {
  /** Who holds it, as shown in prediction.job_leases.holder (instance id, host and pid). */
  holder: string;
  /** Lifetime of the lease after each renewal; it is renewed every third of it. */
  ttlMs: number;
}

export interface JobLease {
  readonly name: string;
  /** Fencing token of this acquisition (prediction.job_leases.token). */
  readonly token: number;
  /**
   * Aborted once the lease is lost: a renewal found it taken over or expired, or no renewal was
   * confirmed within the TTL (the database stopped answering). Its reason is a LeaseLostError. A
   * job should stop at once: its writes are refused from then on anyway.
   */
  readonly lost: AbortSignal;
  /** Pass to every write: throws LeaseLostError, rolling the write back, unless the lease still holds. */
  readonly fence: WriteFence;
  /** Stops the renewals and frees the lease for the next holder. */
  release(): Promise<void>;
}

/**
 * Takes the lease of job `name` if it is free and keeps it renewed through `sql` (a pool) until
 * released; null while another holder has it. The lease replaces session advisory locks, which
 * any login (a read-only BI session included) could take and hold: its rows can be neither read
 * nor locked without the app's privileges.
 */
export async function takeJobLease(sql: postgres.Sql, name: string, options: LeaseOptions): Promise<JobLease | null> {
  const { ttlMs } = options;
  const requestedAt = performance.now();
  const acquired = await withStatementDeadline(sql, 'taking a job lease', () => acquireLease(sql, name, options.holder, ttlMs));
  if (!acquired) return null;
  const { token } = acquired;
  const lostController = new AbortController();
  const lost = lostController.signal;
  // When the lease expires at the latest by this host's monotonic clock: the database started its
  // TTL after the request left, so this errs on the early side.
  let expiresAtMs = requestedAt + ttlMs;
  let lastError: unknown;
  let renewing = false;
  let released = false;
  let expiryTimer: NodeJS.Timeout | undefined;

  const stopTimers = () => {
    clearInterval(heartbeat);
    clearTimeout(expiryTimer);
  };
  const lose = (why: string, cause?: unknown) => {
    if (lost.aborted) return;
    stopTimers();
    lostController.abort(new LeaseLostError(`The lease of job "${name}" was lost: ${why}`, { cause }));
  };
  const loseUnrenewed = () => lose(`no renewal was confirmed within its TTL of ${ttlMs} ms`, lastError);
  const armExpiry = () => {
    clearTimeout(expiryTimer);
    expiryTimer = setTimeout(loseUnrenewed, Math.max(0, expiresAtMs - performance.now()));
    expiryTimer.unref();
  };
  const renew = async () => {
    if (renewing || released || lost.aborted) return;
    renewing = true;
    const sentAt = performance.now();
    try {
      if (await renewLease(sql, name, token, ttlMs)) {
        expiresAtMs = sentAt + ttlMs;
        if (!released && !lost.aborted) armExpiry();
      } else if (!released) {
        lose('another holder took it over, or it expired before it could be renewed');
      }
    } catch (error) {
      // Retried at the next beat; the expiry timer decides when it is too late.
      lastError = error;
    } finally {
      renewing = false;
    }
  };
  const heartbeat = setInterval(() => void renew(), Math.max(1, Math.floor(ttlMs / 3)));
  heartbeat.unref();
  armExpiry();

  return {
    name,
    token,
    lost,
    fence: async (tx) => {
      if (released) throw new LeaseLostError(`The lease of job "${name}" was released: not committing`);
      if (!lost.aborted && performance.now() >= expiresAtMs) loseUnrenewed();
      if (!lost.aborted && !(await checkLease(tx, name, token))) lose('another holder took it over, or it expired');
      if (lost.aborted) throw new LeaseLostError(`The lease of job "${name}" is no longer held: not committing`, { cause: lost.reason });
    },
    release: async () => {
      if (released) return;
      released = true;
      stopTimers();
      const release = releaseLease(sql, name, token).catch(() => {});
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([release, new Promise<void>((resolve) => (timer = setTimeout(resolve, RELEASE_WAIT_MS)))]);
      clearTimeout(timer);
    },
  };
}
