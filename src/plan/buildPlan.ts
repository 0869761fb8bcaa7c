import type { BookCandidate } from '../sync/bookSchedule.js';
import { JOB_NAMES, type JobName } from '../sync/jobCatalog.js';
import { type BookInformation, bookInformation } from './bookInformation.js';
import { type BookRefresh, bookRefresh } from './bookRefresh.js';
import { cronTicks, periodMsOf } from './cronTicks.js';
import type { Universe } from './readUniverse.js';
import { replayRequestBudget } from './replayRequestBudget.js';

/** What each job's requests are spent on. */
export const PHASE_OF: Record<JobName, PhasePlan['phase']> = {
  crawl: 'listings',
  trades: 'trades',
  details: 'details',
  orderbooks: 'books',
};

export interface PlanRequest {
  universe: Universe;
  /** The rate planned for, in requests per minute. */
  rpm: number;
  /** The client's queue at that rate: at most `requests` sends in any `windowMs` (its window and margin). */
  limit: { requests: number; windowMs: number };
  schedules: Record<JobName, string>;
  orderBookMaxAgeSec: number;
  /** Books in one fetch batch of a service sweep. */
  booksPerBatch: number;
  /**
   * The open markets as the sweep's schedule sees them (selectBookCandidates). Given, the service's
   * sweep is taken to run its schedule at the plan's rate (JobSettings.rateLimitRpm): every sweep
   * fills its time to its hand-over, hot books several times; and the plan predicts F, Fv and C.
   */
  books?: readonly BookCandidate[];
  /**
   * Listing pages each sweep reads alongside its books (hotListingPages of ORDERBOOK_HOT_EVENTS,
   * for each provider): part of the sweep's requests, not of its book fetches. Default 0.
   */
  sweepListingPages?: number;
}

export interface PhasePlan {
  phase: 'listings' | 'trades' | 'details' | 'books';
  job: JobName;
  schedule: string;
  everySec: number;
  /** What a run sends; for the sweep, the books it fetches on average. */
  requestsPerRun: number;
  requestsPerMinute: number;
  /**
   * Share of the budget; of what is sent when the replay sends more than the budget (a window's
   * edge lets a burst in), so that the shares and the unused share add up to 1.
   */
  share: number;
  /** Share of the job's ticks skipped because its previous run was still going. */
  ticksSkipped: number;
}

export interface Plan {
  rpm: number;
  limit: { requests: number; windowSec: number };
  /** What the limit allows a minute. */
  budgetPerMinute: number;
  universe: Universe;
  phases: PhasePlan[];
  unusedPerMinute: number;
  books: BookRefresh;
  /** The replayed span the rates are averaged over (after a warm-up). */
  replayedSec: number;
  /** What the sweep's fetches are predicted to capture; null without `books`. */
  information: BookInformation | null;
}

/** Targets of a scheduled sweep in the replay: its schedule always lists more than its time takes. */
const SCHEDULED_SWEEP_TARGETS = 2 ** 31;

/** Longest replay: beyond it, a schedule's pattern is taken as repeating. */
const MAX_MEASURE_MS = 6 * 3600_000;

/**
 * The plan at one rate: the universe's requests per run of each job, spent over time by
 * replayRequestBudget as the service would (priorities, limit, skipped ticks), and what the
 * sweeps it replays give each open market's book.
 */
export function buildPlan(request: PlanRequest): Plan {
  const { universe, limit, schedules } = request;
  const periodMs = Object.fromEntries(JOB_NAMES.map((j) => [j, periodMsOf(cronTicks(schedules[j], 0))])) as Record<JobName, number>;
  // Warm up as long as the slowest job's period, so each job ran once and the window is as full as in a running service.
  const warmMs = Math.max(periodMs.crawl, periodMs.details, 5 * periodMs.orderbooks, 2 * limit.windowMs);
  const unit = lcm(Object.values(periodMs));
  const wantedMs = Math.max(2 * Math.max(periodMs.crawl, periodMs.details), 30 * periodMs.orderbooks, 10 * limit.windowMs);
  const measureMs = unit <= MAX_MEASURE_MS ? Math.ceil(wantedMs / unit) * unit : Math.min(wantedMs, MAX_MEASURE_MS);
  const ticks = Object.fromEntries(JOB_NAMES.map((j) => [j, cronTicks(schedules[j], warmMs + measureMs)])) as Record<JobName, number[]>;
  const startMs = Math.min(...JOB_NAMES.map((j) => ticks[j][0] ?? Infinity));
  const measureFromMs = startMs + warmMs;

  const perRun = {
    crawl: universe.listings.reduce((n, l) => n + l.pages, 0) + universe.feedRequests,
    // One poll a tick: the feed's pace adds polls to a tick only while it outruns the schedule.
    trades: 1,
    details: universe.detailEvents + universe.detailMarkets,
  };
  const replay = replayRequestBudget({
    limit,
    crawl: { ticksMs: ticks.crawl, requestsPerRun: perRun.crawl },
    trades: { ticksMs: ticks.trades, requestsPerRun: perRun.trades },
    details: { ticksMs: ticks.details, requestsPerRun: perRun.details },
    orderbooks: {
      ticksMs: ticks.orderbooks,
      targets: request.books && universe.openMarkets > 0 ? SCHEDULED_SWEEP_TARGETS : universe.openMarkets,
      booksPerBatch: request.booksPerBatch,
      listingPages: request.sweepListingPages ?? 0,
    },
    measureFromMs,
    endMs: measureFromMs + measureMs,
  });

  const budgetPerMinute = (limit.requests * 60_000) / limit.windowMs;
  const perMinute = (n: number) => (n * 60_000) / measureMs;
  const sweeps = replay.sweeps;
  const booksPerSweep = sweeps.length === 0 ? 0 : sweeps.reduce((n, s) => n + s.books, 0) / sweeps.length;
  const sentPerMinute = JOB_NAMES.reduce((n, job) => n + perMinute(replay.requests[job]), 0);
  const shareBase = Math.max(budgetPerMinute, sentPerMinute);
  const phases = JOB_NAMES.map((job) => ({
    phase: PHASE_OF[job],
    job,
    schedule: schedules[job],
    everySec: periodMs[job] / 1000,
    requestsPerRun: job === 'orderbooks' ? booksPerSweep : perRun[job],
    requestsPerMinute: perMinute(replay.requests[job]),
    share: perMinute(replay.requests[job]) / shareBase,
    ticksSkipped: replay.ticks[job] === 0 ? 0 : replay.skippedTicks[job] / replay.ticks[job],
  }));
  const used = phases.reduce((n, p) => n + p.requestsPerMinute, 0);
  const sweepEveryMs = sweeps.length < 2 ? periodMs.orderbooks : (sweeps.at(-1)!.startMs - sweeps[0]!.startMs) / (sweeps.length - 1);
  return {
    rpm: request.rpm,
    limit: { requests: limit.requests, windowSec: limit.windowMs / 1000 },
    budgetPerMinute,
    universe,
    phases,
    unusedPerMinute: Math.max(0, budgetPerMinute - used),
    books: bookRefresh({
      openMarkets: universe.openMarkets,
      dueBooks: universe.dueBooks,
      sweepEverySec: sweepEveryMs / 1000,
      booksPerSweep,
      cutShort: sweeps.some((s) => s.cutShort),
      maxAgeSec: request.orderBookMaxAgeSec,
    }),
    replayedSec: measureMs / 1000,
    information: request.books
      ? bookInformation(request.books, {
          nowMs: universe.at.getTime(),
          sweepEverySec: sweepEveryMs / 1000,
          fetchesPerSec: perMinute(replay.requests.orderbooks - replay.sweepListingPages) / 60,
          maxAgeSec: request.orderBookMaxAgeSec,
          booksPerBatch: request.booksPerBatch,
        })
      : null,
  };
}

function lcm(values: readonly number[]): number {
  const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
  return values.reduce((a, b) => (a / gcd(a, b)) * b, 1);
}
