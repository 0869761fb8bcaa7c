import { handOverAtMs } from './handOverAtMs.js';

/**
 * The span a paced sweep plans for, at the least: a longer sweep (the default schedule's, a
 * minute) plans again at each, reading the fetches' outcomes and the crawl's movers anew. Kept to
 * one plan, a sweep a minute lost what its plan could not foresee (a busy book's fetches late
 * behind the other jobs' requests at the minute's tick, the crawl's movers of the minute) and
 * measured Fv at 0.79-0.87 of the best allocation at 600 requests a minute, against 0.995 with a
 * plan every 10 s (bench/capture.ts --sweep-every 60).
 */
export const REPLAN_EVERY_SEC = 10;

/** Most of a plan's span its planning may take (no book is fetched meanwhile): a slower plan spans more. */
const PLANNING_SHARE = 0.05;

/**
 * Fetches a plan holds at the least: a slower sweep plans for longer. Each plan starts its layout
 * afresh and drops the requests still waiting for the rate limit at its end, costs that weigh on
 * a plan of a few fetches (about 9 in 10 s at 60 requests a minute). There the bench could not
 * tell the two apart (bench/capture.ts --rpm 60 --default-schedules: Fv/best 0.834 planning every
 * 10 s; 0.921 and 0.843 with one plan a minute), so a slow sweep keeps the single plan it had.
 */
export const PLAN_LEAST_FETCHES = 50;

/** The least a plan spans: seconds, and fetches at the sweep's rate. */
export interface PlanSpan {
  everySec: number;
  leastFetches: number;
}

export const PLAN_SPAN: Readonly<PlanSpan> = Object.freeze({ everySec: REPLAN_EVERY_SEC, leastFetches: PLAN_LEAST_FETCHES });

/**
 * When a plan started at `nowMs` ends: `span.everySec` later, longer if that holds fewer than
 * `span.leastFetches` at `fetchesPerSec` or if planning took more than PLANNING_SHARE of it; at
 * the hand-over when less than half a span would be left after it.
 */
export function planEndMs(
  nowMs: number,
  handOverMs: number,
  planningMs: number,
  fetchesPerSec: number,
  span: Readonly<PlanSpan> = PLAN_SPAN,
): number {
  const spanMs = Math.max(span.everySec * 1000, planningMs / PLANNING_SHARE, (span.leastFetches / fetchesPerSec) * 1000);
  return nowMs + 1.5 * spanMs >= handOverMs ? handOverMs : nowMs + spanMs;
}

/**
 * Seconds the first plan of a sweep every `periodSec` spans at `fetchesPerSec`: the horizon `plan`
 * replays the sweep's allocation over, as the sweep makes it.
 */
export function firstPlanSec(periodSec: number, fetchesPerSec: number): number {
  return planEndMs(0, handOverAtMs(0, periodSec * 1000), 0, fetchesPerSec) / 1000;
}
