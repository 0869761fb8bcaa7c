import type { ContractChangeKind } from '../domain/types.js';
import type { ServerRateLimit } from '../sql/core/ingestRuns.js';
import type { BookAges } from '../sql/status/selectBookAges.js';
import type { BookFetchOutcomes } from '../sql/status/selectBookFetchOutcomes.js';
import type { EndpointIntake } from '../sql/status/selectIntakeSince.js';
import type { QuarantineSince } from '../sql/status/selectQuarantineSince.js';
import type { TableSize } from '../sql/status/selectTableSizes.js';
import type { TradeActivity } from '../sql/status/selectTradeActivity.js';
import type { JobRequests } from '../sql/targets/selectRequestRate.js';

// What `status` reports, printed as text or as one JSON document (`--json`). Its keys are a
// public interface for scripts: added to, never renamed. Times are Dates (ISO 8601 in JSON);
// every quantity carries its unit in its name.

/** healthy: nothing to report; degraded: only degraded runs (exit 6); unhealthy: anything else. */
export type Verdict = 'healthy' | 'degraded' | 'unhealthy';

export type ProblemKind =
  'no_runs' | 'last_run_failed' | 'last_run_degraded' | 'run_time_not_finite' | 'stale_listing' | 'stale_order_books';

export interface Problem {
  kind: ProblemKind;
  /** `degraded` for a degraded run alone; `unhealthy` for the rest. */
  severity: Exclude<Verdict, 'healthy'>;
  /** One line, for a person. */
  message: string;
}

/** How stale the data may be before `status` calls it unhealthy. */
export interface Thresholds {
  /** Age allowed for the latest complete crawl of each listing the configuration crawls. */
  listingMaxAgeSec: number;
  /** Age allowed for the oldest open market's order book. */
  bookMaxAgeSec: number;
}

export interface RunSummary {
  runId: number;
  /** running, succeeded, degraded, failed or aborted. */
  status: string;
  startedAt: Date;
  finishedAt: Date | null;
  /** Null while the run is running. */
  durationMs: number | null;
  requests: number;
  recordsSeen: number;
  recordsWritten: number;
  recordsRejected: number;
  /** Rows inserted, all tables together, and per table. */
  rowsWritten: number;
  rowsByTable: Record<string, number>;
  error: string | null;
}

export interface JobStatus {
  job: string;
  /** The run started last (it may still be running); null if the job never ran. */
  lastRun: RunSummary | null;
  /** The run finished last, which is what health looks at; null if none finished. */
  lastFinishedRun: RunSummary | null;
  /** Runs started since `sinceAt`, by status. */
  runsSince: Record<string, number>;
}

export interface ListingStatus {
  provider: string;
  /** Null for events upstream gave no category. */
  category: string | null;
  /** A listing the configuration crawls (PREDICTION_PROVIDERS × PREDICTION_CATEGORIES): only these can be stale. */
  expected: boolean;
  events: number;
  activeEvents: number;
  markets: number;
  openMarkets: number;
  lastCompleteCrawlStartedAt: Date | null;
  lastCompleteCrawlFinishedAt: Date | null;
  /** Age of that crawl's end; null if no complete crawl is recorded. */
  ageSec: number | null;
  /** Crawls of the listing started since `sinceAt`, and of those the complete ones. */
  crawlsSince: number;
  completeCrawlsSince: number;
}

export interface CategoryCompleteness {
  provider: string;
  category: string;
  /** Null when the service's latest counts did not name the category (or were never read). */
  serviceEvents: number | null;
  /** Null when the latest complete crawl listed no event of it. */
  crawledEvents: number | null;
  countedAt: Date | null;
}

export interface StatusReport {
  /** The instant every age is measured from. */
  generatedAt: Date;
  verdict: Verdict;
  healthy: boolean;
  problems: Problem[];
  settings: Thresholds & { sinceAt: Date; rateWindowSec: number; rateLimitRpm: number };
  /** crawl, details, orderbooks (the service's jobs), then sync (the `sync` command's). */
  jobs: JobStatus[];
  /** `bookFetches`: what the order-book fetches found (changed share, the most active tenth's book age). */
  freshness: { listings: ListingStatus[]; orderBooks: BookAges; bookFetches: BookFetchOutcomes };
  /**
   * Per provider × category, the service's own event count (GET /events/categories, read with each
   * crawl) beside what the latest complete crawl listed: a category the crawl misses shows here.
   */
  completeness: CategoryCompleteness[];
  /** What was read since `sinceAt`. */
  intake: {
    sinceAt: Date;
    byEndpoint: EndpointIntake[];
    totals: Omit<EndpointIntake, 'endpoint'>;
    /**
     * How the records received since then differ from what the service sends today
     * (analytics.upstream_drift): each change once, the first of them listed.
     */
    upstreamChanges: { count: number; changes: UpstreamChange[] };
    quarantine: QuarantineSince;
  };
  database: {
    totalBytes: number;
    tables: TableSize[];
    /** The retention setting, and per table what it has dropped (analytics.history_horizons). */
    retention: { months: number | null; horizons: HistoryHorizon[] };
  };
  requestRate: {
    /**
     * The span the rate is averaged over: settings.rateWindowSec, or less when the first run
     * overlapping it began later (a young service), from that run's start.
     */
    windowSec: number;
    fromAt: Date;
    toAt: Date;
    requests: number;
    requestsPerMin: number;
    limitRpm: number;
    usedPercent: number;
    /** Runs overlapping the window that are still running: their requests are not counted yet. */
    runningRuns: number;
    /** The gateway's window as the latest run that saw its x-ratelimit-* headers recorded it; null when none did. */
    server: ServerRateLimit | null;
    byJob: JobRequests[];
  };
  /** The trade feed since `sinceAt`: trades made, and the polls that read them and their gaps. */
  trades: TradeActivity & { sinceAt: Date; tradesPerHour: number };
}

export interface HistoryHorizon {
  tableName: string;
  /** Data before this instant was dropped. */
  horizon: Date;
  partitionsDropped: number;
  rowsDropped: number;
  lastDroppedAt: Date;
}

export interface UpstreamChange {
  endpoint: string;
  kind: ContractChangeKind;
  /** Key path, array items as `[]`; '' for the record itself. */
  path: string;
  /** See ContractChange.detail. */
  detail: string;
  firstSeenAt: Date;
  lastSeenAt: Date;
  recordsSeen: number;
  /** The endpoint's latest records still showed it. */
  isCurrent: boolean;
}
