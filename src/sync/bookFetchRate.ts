import type { Queryable } from '../sql/core/queryable.js';
import { selectRequestRate } from '../sql/targets/selectRequestRate.js';

/** The span of recent runs the other jobs' request rate is measured over. */
export const OTHER_JOBS_WINDOW_SEC = 300;

/** The client's margin on its window (PredictionClientOptions' default marginMs over a 60 s window). */
const WINDOW_MARGIN = 60_000 / 60_500;

/**
 * Book fetches a second the sweep can expect: the plan's rate (`rateLimitRpm`, less the client's
 * margin) less what the other jobs sent over the last OTHER_JOBS_WINDOW_SEC (ingest_runs), at least
 * a tenth of the plan's rate. Only the sweep's schedule uses it: the client's queue paces the sends.
 */
export async function bookFetchRate(sql: Queryable, sweepJob: string, rateLimitRpm: number, now: Date): Promise<number> {
  const budgetPerSec = (rateLimitRpm / 60) * WINDOW_MARGIN;
  const from = new Date(now.getTime() - OTHER_JOBS_WINDOW_SEC * 1000);
  const jobs = await selectRequestRate(sql, from, now);
  const others = jobs.filter((j) => j.job !== sweepJob).reduce((n, j) => n + j.requests, 0) / OTHER_JOBS_WINDOW_SEC;
  return Math.max(budgetPerSec / 10, budgetPerSec - others);
}
