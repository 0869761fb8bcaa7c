import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

import type { RequestEvent } from '../api/client/index.js';
import type { RunStatus } from '../sql/core/ingestRuns.js';

export type JobRunStatus = Exclude<RunStatus, 'running'>;

export interface MetricsOptions {
  /**
   * Live size of the API client's queue, read at every scrape (e.g. `() => client.stats().queue`):
   * `size` calls waiting for a slot, `pending` attempts in flight. Default: the gauge has no series.
   */
  queueDepth?: () => { size: number; pending: number };
  /**
   * The configured plan and the gateway's window as the client sees them, read at every scrape
   * (e.g. `() => client.stats()`): `prediction_api_plan_requests_per_minute` beside
   * `prediction_api_server_window_*`. Default: the gauges have no series.
   */
  rateWindows?: () => {
    planRequestsPerMinute: number;
    serverWindow: { requests: number; windowSec: number | null; requestsPerMinute: number | null; remaining: number } | null;
  };
  /** Clock for `prediction_data_freshness_seconds`, in epoch ms. Default: `Date.now`. */
  now?: () => number;
  /** Also export Node's process metrics (`process_*`, `nodejs_*`). Default: true. */
  processMetrics?: boolean;
}

export interface Metrics {
  /** This process's registry (not prom-client's global one, so tests and instances never share). */
  readonly registry: Registry;
  /** Counts one API attempt; pass as the client's `onRequest`. A 429 also counts as rate limited. */
  observeRequest(event: RequestEvent): void;
  /** Adds `rows` (≥ 0) rows written to `table`. */
  recordRows(table: string, rows: number): void;
  /**
   * Counts a finished run of `job` and observes its duration; `prediction_job_degraded` follows
   * whether this run was degraded (a failed run leaves it as it was).
   */
  recordJobRun(job: string, status: JobRunStatus, durationMs: number): void;
  /**
   * Records that `job` last succeeded at `atMs` (epoch ms). Never moves backwards, so it may also be
   * seeded at start from the database's last successful run.
   */
  markJobSuccess(job: string, atMs: number): void;
  /** Epoch ms of the job's last recorded success, or null: fits `createReadiness({ lastSuccess })`. */
  lastSuccess(job: string): number | null;
}

/** Seconds: API calls take tens of ms to a few s (rate-limit pauses are waited outside the attempt). */
const REQUEST_BUCKETS = [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** Seconds: a job run takes from seconds (a page) to an hour (a full crawl on the Free plan). */
const JOB_BUCKETS = [1, 5, 15, 30, 60, 120, 300, 600, 1200, 1800, 3600, 7200];

/** Creates the service's metrics on a registry of their own. */
export function createMetrics(options: MetricsOptions = {}): Metrics {
  const now = options.now ?? Date.now;
  const registry = new Registry();
  if (options.processMetrics ?? true) collectDefaultMetrics({ register: registry });
  const lastSuccessMs = new Map<string, number>();
  // Every metric of the service, on this registry: its name, help text, labels and, for a
  // histogram, its buckets; a gauge read at scrape time also has its collect function.
  const registers = [registry];
  const counter = <L extends string = never>(name: string, help: string, labelNames: readonly L[] = []) =>
    new Counter<L>({ name, help, labelNames, registers });
  const histogram = <L extends string>(name: string, help: string, labelNames: readonly L[], buckets: number[]) =>
    new Histogram<L>({ name, help, labelNames, buckets, registers });
  const gauge = <L extends string = never>(name: string, help: string, labelNames: readonly L[], collect?: (this: Gauge<L>) => void) =>
    new Gauge<L>({ name, help, labelNames, registers, ...(collect ? { collect } : {}) });

  const requests = counter('prediction_api_requests_total', 'API attempts sent, by endpoint template and HTTP status (or network_error).', [
    'endpoint',
    'status',
  ]);
  const requestDuration = histogram(
    'prediction_api_request_duration_seconds',
    'Duration of API attempts, from sending to the end of the body or the failure.',
    ['endpoint'],
    REQUEST_BUCKETS,
  );
  const rateLimited = counter('prediction_api_rate_limited_total', '429 responses received from the API.');
  const rateWindows = options.rateWindows;
  gauge(
    'prediction_api_plan_requests_per_minute',
    'The configured plan (PREDICTION_RATE_LIMIT_RPM): requests per minute the client allows itself.',
    [],
    function () {
      if (rateWindows) this.set(rateWindows().planRequestsPerMinute);
    },
  );
  gauge(
    'prediction_api_server_window',
    'The gateway\'s window as its answers report it (x-ratelimit-*): requests it allows per window (field="requests"), the window\'s length in seconds (field="seconds"), requests per minute (field="requests_per_minute"), and what the latest answer left (field="remaining"). No series before an answer carried the headers.',
    ['field'],
    function () {
      this.reset();
      const server = rateWindows?.().serverWindow;
      if (!server) return;
      this.set({ field: 'requests' }, server.requests);
      this.set({ field: 'remaining' }, server.remaining);
      if (server.windowSec !== null) this.set({ field: 'seconds' }, server.windowSec);
      if (server.requestsPerMinute !== null) this.set({ field: 'requests_per_minute' }, server.requestsPerMinute);
    },
  );
  const queueDepth = options.queueDepth;
  gauge(
    'prediction_api_queue_depth',
    'API client queue: calls waiting for a slot (state="waiting") and attempts in flight (state="in_flight").',
    ['state'],
    function () {
      if (!queueDepth) return;
      const { size, pending } = queueDepth();
      this.set({ state: 'waiting' }, size);
      this.set({ state: 'in_flight' }, pending);
    },
  );
  const rows = counter('prediction_rows_written_total', 'Rows inserted or updated, by table.', ['table']);
  const jobRuns = counter('prediction_job_runs_total', 'Finished job runs, by job and status (succeeded, failed, aborted).', [
    'job',
    'status',
  ]);
  const jobDuration = histogram('prediction_job_duration_seconds', 'Duration of finished job runs.', ['job'], JOB_BUCKETS);
  const lastSuccessGauge = gauge('prediction_job_last_success_timestamp_seconds', 'Unix time of the last successful run of each job.', [
    'job',
  ]);
  const degraded = gauge(
    'prediction_job_degraded',
    '1 while the latest finished run of the job was degraded (rejected more than MAX_REJECTED_PERCENT of what it read), else 0.',
    ['job'],
  );
  gauge(
    'prediction_data_freshness_seconds',
    'Seconds since the last successful run of each job, at scrape time (no series before a first success).',
    ['job'],
    function () {
      const at = now();
      for (const [job, ms] of lastSuccessMs) this.set({ job }, Math.max(0, (at - ms) / 1000));
    },
  );

  return {
    registry,
    observeRequest(event) {
      requests.inc({ endpoint: event.endpoint, status: String(event.status) });
      requestDuration.observe({ endpoint: event.endpoint }, event.durationMs / 1000);
      if (event.status === 429) rateLimited.inc();
    },
    recordRows(table, n) {
      if (!Number.isFinite(n) || n < 0) throw new RangeError(`rows written must be a non-negative number, got ${n} for ${table}`);
      rows.inc({ table }, n);
    },
    recordJobRun(job, status, durationMs) {
      jobRuns.inc({ job, status });
      jobDuration.observe({ job }, Math.max(0, durationMs) / 1000);
      if (status === 'succeeded' || status === 'degraded') degraded.set({ job }, status === 'degraded' ? 1 : 0);
    },
    markJobSuccess(job, atMs) {
      const previous = lastSuccessMs.get(job);
      if (previous !== undefined && previous >= atMs) return;
      lastSuccessMs.set(job, atMs);
      lastSuccessGauge.set({ job }, atMs / 1000);
    },
    lastSuccess: (job) => lastSuccessMs.get(job) ?? null,
  };
}
