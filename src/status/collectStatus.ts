import type { Sql } from '../db/connect.js';
import type { ContractChangeKind } from '../domain/types.js';
import { selectHistoryHorizons } from '../sql/export/selectHistoryHorizons.js';
import { selectBookAges } from '../sql/status/selectBookAges.js';
import { selectBookFetchOutcomes } from '../sql/status/selectBookFetchOutcomes.js';
import { selectCategoryCompleteness } from '../sql/status/selectCategoryCompleteness.js';
import { selectCoverageSince } from '../sql/status/selectCoverageSince.js';
import { selectDriftSince } from '../sql/status/selectDriftSince.js';
import { selectIntakeSince } from '../sql/status/selectIntakeSince.js';
import { type RunRow, selectLatestRuns } from '../sql/status/selectLatestRuns.js';
import { selectListingFreshness } from '../sql/status/selectListingFreshness.js';
import { selectQuarantineSince } from '../sql/status/selectQuarantineSince.js';
import { selectRunCountsSince } from '../sql/status/selectRunCountsSince.js';
import { selectServerRateLimit } from '../sql/status/selectServerRateLimit.js';
import { selectTableSizes } from '../sql/status/selectTableSizes.js';
import { selectTradeActivity } from '../sql/status/selectTradeActivity.js';
import { selectRequestRate } from '../sql/targets/selectRequestRate.js';
import { crawlPlan } from '../sync/crawlPlan.js';
import { JOB_NAMES, SYNC_JOB } from '../sync/jobCatalog.js';
import { assessHealth } from './assessHealth.js';
import { NotMigratedError } from './NotMigratedError.js';
import type { JobStatus, ListingStatus, RunSummary, StatusReport, Thresholds } from './StatusReport.js';

/**
 * The jobs of the report, in its order: the service's first three, the `sync` command's, then the
 * service's jobs added since (scripts read `jobs` by position, so a new job is appended).
 */
export const STATUS_JOBS: readonly string[] = [...JOB_NAMES.slice(0, 3), SYNC_JOB, ...JOB_NAMES.slice(3)];

/** Requests per minute are measured over this window before `at` (see StatusReport.requestRate). */
export const RATE_WINDOW_SEC = 900;

/** The shortest span a rate is averaged over: a run a second old has sent too little to say. */
const MIN_RATE_WINDOW_SEC = 1;

/** How many quarantine groups and new shapes are listed (their totals are always given). */
const LISTED = { quarantineGroups: 10, changes: 20 } as const;

export interface StatusRequest {
  /** The instant ages are measured from: now, or a simulator's clock in tests. */
  at: Date;
  /** Start of the period drift, quarantine and run counts cover. */
  since: Date;
  thresholds: Thresholds;
  /** What the configuration crawls (PREDICTION_PROVIDERS, PREDICTION_CATEGORIES): the listings that must stay fresh. */
  providers: readonly string[];
  categories: readonly string[];
  /** The plan's requests per minute (PREDICTION_RATE_LIMIT_RPM). */
  rateLimitRpm: number;
  /** PREDICTION_RETENTION_MONTHS; null keeps everything. */
  retentionMonths: number | null;
}

/**
 * Reads everything `status` reports in one read-only transaction (one snapshot: the counts agree
 * with each other) and judges it (assessHealth). Throws NotMigratedError when the database lacks
 * the tables or views it reads.
 */
export async function collectStatus(sql: Sql, request: StatusRequest): Promise<StatusReport> {
  const { at, since } = request;
  const rateFrom = new Date(at.getTime() - RATE_WINDOW_SEC * 1000);
  const facts = await readFacts(sql, { at, since, rateFrom }).catch(async (error: unknown) => {
    if (NotMigratedError.from(error, false) === undefined) throw error;
    const [schema] = await sql<{ bare: boolean }[]>`select to_regnamespace('prediction') is null as bare`;
    throw NotMigratedError.from(error, schema!.bare);
  });

  const jobs: JobStatus[] = STATUS_JOBS.map((job) => {
    const runs = facts.runs.get(job);
    const runsSince = Object.fromEntries(facts.runCounts.filter((r) => r.job === job).map((r) => [r.status, r.runs]));
    return { job, lastRun: summary(runs?.latest), lastFinishedRun: summary(runs?.latestFinished), runsSince };
  });

  const expectedListings = crawlPlan(request.providers, request.categories);
  const isExpected = (provider: string, category: string | null) =>
    expectedListings.some((l) => l.provider === provider && l.category === category);
  const listings: ListingStatus[] = facts.freshness.map((f) => {
    const crawls = facts.coverage.find((c) => c.provider === f.provider && c.category === f.category);
    const finished = f.lastCompleteCrawlFinishedAt;
    return {
      provider: f.provider,
      category: f.category,
      expected: isExpected(f.provider, f.category),
      events: Number(f.events),
      activeEvents: Number(f.activeEvents),
      markets: Number(f.markets),
      openMarkets: Number(f.openMarkets),
      lastCompleteCrawlStartedAt: f.lastCompleteCrawlStartedAt,
      lastCompleteCrawlFinishedAt: finished,
      ageSec: finished === null ? null : Math.max(0, (at.getTime() - finished.getTime()) / 1000),
      crawlsSince: crawls?.crawls ?? 0,
      completeCrawlsSince: crawls?.completeCrawls ?? 0,
    };
  });

  const { verdict, problems } = assessHealth({
    jobs,
    listings,
    expectedListings,
    orderBooks: facts.books,
    since,
    thresholds: request.thresholds,
  });

  const requests = facts.rate.reduce((n, j) => n + j.requests, 0);
  // A service younger than the window sent its requests since its first run, not over the whole
  // window: averaged over the time it ran, or a service 4 minutes old shows a quarter of its rate.
  const firstStartMs = Math.min(...facts.rate.map((j) => j.firstStartedAt.getTime()));
  const rateFromAt = new Date(Math.max(rateFrom.getTime(), Number.isFinite(firstStartMs) ? firstStartMs : rateFrom.getTime()));
  const rateWindowSec = Math.max((at.getTime() - rateFromAt.getTime()) / 1000, MIN_RATE_WINDOW_SEC);
  const requestsPerMin = requests / (rateWindowSec / 60);
  const sum = (key: 'accepted' | 'acceptedWithDrift' | 'rejected') => facts.intake.reduce((n, e) => n + e[key], 0);

  return {
    generatedAt: at,
    verdict,
    healthy: verdict === 'healthy',
    problems,
    settings: { ...request.thresholds, sinceAt: since, rateWindowSec: RATE_WINDOW_SEC, rateLimitRpm: request.rateLimitRpm },
    jobs,
    freshness: { listings, orderBooks: facts.books, bookFetches: facts.bookFetches },
    completeness: facts.completeness,
    intake: {
      sinceAt: since,
      byEndpoint: facts.intake,
      totals: { accepted: sum('accepted'), acceptedWithDrift: sum('acceptedWithDrift'), rejected: sum('rejected') },
      upstreamChanges: {
        count: facts.drift.count,
        changes: facts.drift.changes.map((c) => ({ ...c, kind: c.kind as ContractChangeKind, recordsSeen: Number(c.recordsSeen) })),
      },
      quarantine: facts.quarantine,
    },
    database: {
      // Partitions are counted in their partitioned table's size.
      totalBytes: facts.tables.filter((t) => t.partitionOf === null).reduce((n, t) => n + t.bytes, 0),
      tables: facts.tables,
      retention: {
        months: request.retentionMonths,
        horizons: facts.horizons.map((h) => ({ ...h, rowsDropped: Number(h.rowsDropped) })),
      },
    },
    requestRate: {
      windowSec: rateWindowSec,
      fromAt: rateFromAt,
      toAt: at,
      requests,
      requestsPerMin,
      limitRpm: request.rateLimitRpm,
      usedPercent: (requestsPerMin / request.rateLimitRpm) * 100,
      runningRuns: facts.rate.reduce((n, j) => n + j.running, 0),
      byJob: facts.rate,
      server: facts.server,
    },
    trades: {
      ...facts.trades,
      sinceAt: since,
      tradesPerHour: facts.trades.trades / Math.max((at.getTime() - since.getTime()) / 3_600_000, 1 / 60),
    },
  };
}

/** Every query of the report, in one snapshot. */
function readFacts(sql: Sql, t: { at: Date; since: Date; rateFrom: Date }) {
  return sql.begin('isolation level repeatable read read only', async (tx) => ({
    runs: await selectLatestRuns(tx, STATUS_JOBS),
    runCounts: await selectRunCountsSince(tx, t.since),
    freshness: await selectListingFreshness(tx),
    coverage: await selectCoverageSince(tx, t.since),
    books: await selectBookAges(tx, t.at),
    bookFetches: await selectBookFetchOutcomes(tx, t.at),
    intake: await selectIntakeSince(tx, t.since),
    drift: await selectDriftSince(tx, t.since, LISTED.changes),
    quarantine: await selectQuarantineSince(tx, t.since, LISTED.quarantineGroups),
    tables: await selectTableSizes(tx),
    horizons: await selectHistoryHorizons(tx),
    rate: await selectRequestRate(tx, t.rateFrom, t.at),
    trades: await selectTradeActivity(tx, t.since, t.at),
    completeness: await selectCategoryCompleteness(tx),
    server: await selectServerRateLimit(tx),
  }));
}

function summary(run: RunRow | null | undefined): RunSummary | null {
  if (!run) return null;
  // The writer stores non-negative row counts per table (RunTotals.rowsByTable).
  const rowsByTable = run.rowsByTable as Record<string, number>;
  return {
    runId: Number(run.runId),
    status: run.status,
    startedAt: run.startedAt,
    finishedAt: run.finishedAt,
    durationMs: run.finishedAt === null ? null : run.finishedAt.getTime() - run.startedAt.getTime(),
    requests: run.requests,
    recordsSeen: run.recordsSeen,
    recordsWritten: run.recordsWritten,
    recordsRejected: run.recordsRejected,
    rowsWritten: Object.values(rowsByTable).reduce((n, rows) => n + rows, 0),
    rowsByTable,
    error: run.error,
  };
}
