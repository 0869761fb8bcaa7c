import type { Sql } from '../db/connect.js';
import { checkAge } from './checkAge.js';

export interface ReadinessCheck {
  ok: boolean;
  /** Why, in words, for the caller: how old the last success is, or what failed (never a driver's error text). */
  detail?: string;
  /**
   * The error behind a failed check, for the server's log only: its text may name hosts, users or
   * SQL, so the ops server logs it and never sends it.
   */
  cause?: unknown;
}

export interface ReadinessResult {
  /** True when every check is ok. */
  ready: boolean;
  /** `database`, then `job:<name>` for each job. */
  checks: Record<string, ReadinessCheck>;
}

export type Readiness = () => Promise<ReadinessResult>;

export interface ReadinessOptions {
  /**
   * Pool to probe with `select 1`. Best a small one of its own (max 1): on the writers' pool a
   * probe would queue behind long transactions and read as "database unreachable".
   */
  sql: Sql;
  /** Scheduled jobs and how often each is expected to succeed (its schedule's period). */
  jobs: readonly { name: string; expectedPeriodMs: number }[];
  /**
   * Epoch ms of the job's last success, or null if none is known: `metrics.lastSuccess` (this
   * process's runs), or a query of the database's runs, which also keeps a standby instance
   * (running no job itself) ready while the leader keeps the data fresh. An answer later than
   * `timeoutMs` counts as a failed check.
   */
  lastSuccess: (job: string) => number | null | Promise<number | null>;
  /**
   * The job's latest finished run, or null if none: a degraded one fails the job's check with
   * its reason, since the data keeps flowing but the upstream is no longer read soundly.
   * Default: not consulted.
   */
  lastOutcome?: (job: string) => Promise<{ status: string; error: string | null } | null>;
  /** Clock, epoch ms. Default: `Date.now`. */
  now?: () => number;
  /**
   * When the service started, epoch ms: begins each job's grace period. Default: `now()` when
   * `createReadiness` is called, so create it at start-up.
   */
  startedAtMs?: number;
  /**
   * How long `select 1` (and an asynchronous `lastSuccess`) may take before the check fails: a
   * probe must answer even when the database hangs. Default: 2000 ms.
   */
  timeoutMs?: number;
  /** A job is late after this many expected periods without a success. Default: 2. */
  periodsAllowed?: number;
}

/**
 * The `/readyz` rule. Ready when:
 * - the database answers `select 1` within `timeoutMs`;
 * - every job's last success is at most `periodsAllowed` × its expected period old. A job that has
 *   not succeeded yet is given the same span from start-up (`startedAtMs`), since its first run may
 *   legitimately take a period to be scheduled and another to finish.
 */
export function createReadiness(options: ReadinessOptions): Readiness {
  const now = options.now ?? Date.now;
  const startedAtMs = options.startedAtMs ?? now();
  const timeoutMs = options.timeoutMs ?? 2000;
  const periods = options.periodsAllowed ?? 2;

  return async () => {
    const [database, ...jobChecks] = await Promise.all([
      checkDatabase(options.sql, timeoutMs),
      ...options.jobs.map(async (job) => {
        const fresh = await checkJob(job, options.lastSuccess, now, startedAtMs, periods, timeoutMs);
        return fresh.ok && options.lastOutcome ? checkOutcome(job.name, options.lastOutcome, timeoutMs, fresh) : fresh;
      }),
    ]);
    const checks: Record<string, ReadinessCheck> = { database: database! };
    options.jobs.forEach((job, i) => (checks[`job:${job.name}`] = jobChecks[i]!));
    return { ready: Object.values(checks).every((c) => c.ok), checks };
  };
}

/**
 * postgres.js waits for a connection as long as the server keeps the TCP connection open (or a
 * connect attempt hangs), so the probe races a timer and cancels the query when the timer wins.
 */
async function checkDatabase(sql: Sql, timeoutMs: number): Promise<ReadinessCheck> {
  const query = sql`select 1`.execute();
  try {
    const outcome = await raceTimeout(query, timeoutMs);
    if (outcome !== TIMED_OUT) return { ok: true };
    // A cancel request that cannot connect rejects nothing unhandled (postgres.js patched, patches/).
    query.cancel();
    // The cancelled query rejects later; that rejection is expected and must not go unhandled.
    query.catch(() => {});
    return { ok: false, detail: `no answer to select 1 within ${timeoutMs} ms` };
  } catch (error) {
    return { ok: false, detail: 'database unreachable (the cause is in the service log)', cause: error };
  }
}

async function checkJob(
  job: { name: string; expectedPeriodMs: number },
  lastSuccess: ReadinessOptions['lastSuccess'],
  now: () => number,
  startedAtMs: number,
  periods: number,
  timeoutMs: number,
): Promise<ReadinessCheck> {
  const limitMs = periods * job.expectedPeriodMs;
  let last: number | null | typeof TIMED_OUT;
  try {
    last = await raceTimeout(
      Promise.resolve().then(() => lastSuccess(job.name)),
      timeoutMs,
    );
  } catch (error) {
    // lastSuccess usually queries the database: its error text is for the log only.
    return { ok: false, detail: 'cannot read the last success (the cause is in the service log)', cause: error };
  }
  if (last === TIMED_OUT) return { ok: false, detail: `no answer about the last success within ${timeoutMs} ms` };
  return checkAge('success', last, limitMs, now(), startedAtMs);
}

/** A fresh job whose latest run was degraded is not ready: its freshness says nothing of what it rejected. */
async function checkOutcome(
  job: string,
  lastOutcome: NonNullable<ReadinessOptions['lastOutcome']>,
  timeoutMs: number,
  fresh: ReadinessCheck,
): Promise<ReadinessCheck> {
  let outcome: Awaited<ReturnType<typeof lastOutcome>> | typeof TIMED_OUT;
  try {
    outcome = await raceTimeout(lastOutcome(job), timeoutMs);
  } catch (error) {
    return { ok: false, detail: 'cannot read the latest run (the cause is in the service log)', cause: error };
  }
  if (outcome === TIMED_OUT) return { ok: false, detail: `no answer about the latest run within ${timeoutMs} ms` };
  if (outcome?.status !== 'degraded') return fresh;
  return { ok: false, detail: `latest run degraded: ${outcome.error ?? 'rejected too much of what it read'}` };
}

const TIMED_OUT = Symbol('timed out');

/** `promise`'s outcome, or TIMED_OUT if it takes longer than `ms`. */
async function raceTimeout<T>(promise: PromiseLike<T>, ms: number): Promise<T | typeof TIMED_OUT> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(() => resolve(TIMED_OUT), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
