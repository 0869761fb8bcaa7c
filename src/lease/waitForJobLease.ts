import { setTimeout as delay } from 'node:timers/promises';

import type postgres from 'postgres';

import { type JobLease, type LeaseOptions, takeJobLease } from './takeJobLease.js';

export interface WaitForLeaseOptions extends LeaseOptions {
  /** Time between two attempts while another holder has the lease. Default: a quarter of ttlMs, at most 1000. */
  pollMs?: number;
  /** Called once, when the first attempt finds the lease held by another. */
  onWaiting?: () => void;
  /** Aborting gives up the wait: the promise then resolves to null. */
  signal?: AbortSignal | undefined;
}

/**
 * Takes the lease of job `name`, polling until its holder releases it or lets it expire (a
 * crashed holder's lease is free after its TTL). Resolves to null only if `signal` aborts first.
 */
export async function waitForJobLease(sql: postgres.Sql, name: string, options: WaitForLeaseOptions): Promise<JobLease | null> {
  const pollMs = options.pollMs ?? Math.min(1_000, Math.max(1, Math.floor(options.ttlMs / 4)));
  for (let attempt = 0; ; attempt++) {
    if (options.signal?.aborted) return null;
    const lease = await takeJobLease(sql, name, options);
    if (lease) {
      if (!options.signal?.aborted) return lease;
      await lease.release();
      return null;
    }
    if (attempt === 0) options.onWaiting?.();
    // An abort ends the pause early (it rejects); the loop then returns null.
    await delay(pollMs, undefined, { signal: options.signal }).catch(() => {});
  }
}
