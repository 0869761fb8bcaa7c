import { checkAge } from './checkAge.js';

export interface LivenessCheck {
  ok: boolean;
  /** How long since the job's last progress, against what is allowed. */
  detail: string;
}

export interface LivenessResult {
  /** True while at least one job has made progress recently enough (or when there is no job). */
  live: boolean;
  /** `job:<name>` for each job. */
  checks: Record<string, LivenessCheck>;
}

export interface LivenessOptions {
  /** Scheduled jobs and their schedule's period (time between two ticks). */
  jobs: readonly { name: string; expectedPeriodMs: number }[];
  /**
   * A job is stalled after this many periods without progress. Default: 3. At least 2: a run that
   * overshoots its period makes the scheduler skip the next tick (no overlap), so two completed
   * ticks of a healthy job can be almost two periods apart.
   */
  periodsAllowed?: number;
  /** Clock, epoch ms. Default: `Date.now`. */
  now?: () => number;
  /**
   * When the service started, epoch ms: a job that has made no progress yet is given
   * `periodsAllowed` periods from here. Default: `now()` when `createLiveness` is called.
   */
  startedAtMs?: number;
}

export interface Liveness {
  /**
   * Records that `job` moved forward now: a tick whose coordination completed (its run finished
   * and was recorded, whatever its status, or it was left to another instance holding the job),
   * or a write committed by a run still going. Throws on a job not given to `createLiveness`.
   */
  markProgress(job: string): void;
  /** The `/healthz` rule, evaluated now. */
  check(): LivenessResult;
}

/**
 * The `/healthz` rule: the process is live while at least one job has made progress within
 * `periodsAllowed` × its own period (counted from start-up before its first progress). It fails
 * when every job has stalled: the database unreachable or hanging for all of them, or the process
 * wedged. One stalled job alone does not fail it: a low-priority job can legitimately wait for
 * the rate budget for as long as a big crawl runs, and restarting would only throw that crawl's
 * work away. Such a job shows on `/readyz`, whose per-job freshness is meant for alerting.
 */
export function createLiveness(options: LivenessOptions): Liveness {
  const now = options.now ?? Date.now;
  const startedAtMs = options.startedAtMs ?? now();
  const periods = options.periodsAllowed ?? 3;
  if (!Number.isFinite(periods) || periods < 2) throw new RangeError(`periodsAllowed must be a number >= 2, got ${periods}`);
  const lastProgressMs = new Map<string, number | null>();
  for (const job of options.jobs) {
    if (!(Number.isFinite(job.expectedPeriodMs) && job.expectedPeriodMs > 0)) {
      throw new RangeError(`expectedPeriodMs of job ${job.name} must be a positive number of ms, got ${job.expectedPeriodMs}`);
    }
    if (lastProgressMs.has(job.name)) throw new RangeError(`job ${job.name} is listed twice`);
    lastProgressMs.set(job.name, null);
  }

  return {
    markProgress(job) {
      if (!lastProgressMs.has(job))
        throw new RangeError(`unknown job ${JSON.stringify(job)}: liveness watches ${[...lastProgressMs.keys()].join(', ')}`);
      lastProgressMs.set(job, now());
    },
    check() {
      const at = now();
      const checks: Record<string, LivenessCheck> = {};
      for (const job of options.jobs)
        checks[`job:${job.name}`] = checkAge(
          'progress',
          lastProgressMs.get(job.name) ?? null,
          periods * job.expectedPeriodMs,
          at,
          startedAtMs,
        );
      const all = Object.values(checks);
      return { live: all.length === 0 || all.some((c) => c.ok), checks };
    },
  };
}
