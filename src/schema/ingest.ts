import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, jsonb, primaryKey, text, unique } from 'drizzle-orm/pg-core';

import { predictionSchema } from './predictionSchema.js';
import { timestampTz } from './timestampTz.js';

/** One row per job execution, with its accounting. */
export const ingestRuns = predictionSchema.table(
  'ingest_runs',
  {
    runId: bigint('run_id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    job: text('job').notNull(),
    startedAt: timestampTz('started_at').notNull(),
    finishedAt: timestampTz('finished_at'),
    status: text('status').notNull(),
    requests: integer('requests').notNull().default(0),
    /** Requests by endpoint and HTTP status, e.g. {"/events": {"200": 14, "429": 1}}. */
    requestsByStatus: jsonb('requests_by_status')
      .notNull()
      .default(sql`'{}'::jsonb`),
    recordsSeen: integer('records_seen').notNull().default(0),
    recordsWritten: integer('records_written').notNull().default(0),
    recordsRejected: integer('records_rejected').notNull().default(0),
    /** Rows inserted per table, e.g. {"pricing_snapshots": 120}. */
    rowsByTable: jsonb('rows_by_table')
      .notNull()
      .default(sql`'{}'::jsonb`),
    error: text('error'),
    /**
     * Records per endpoint label by outcome, e.g. {"/events": {"accepted": 40, "accepted_with_drift": 2, "rejected": 1}}
     * ("accepted" counts records stored without drift): shows which endpoint drifted or degraded a run.
     */
    recordsByEndpoint: jsonb('records_by_endpoint')
      .notNull()
      .default(sql`'{}'::jsonb`),
    /**
     * The rate-limit window the upstream's gateway reported on the run's answers (x-ratelimit-*),
     * e.g. {"requests": 5, "window_seconds": 4, "requests_per_minute": 75, "observed_at": "…"}; null
     * when no answer carried the headers. What `status` shows beside the configured plan.
     */
    serverRateLimit: jsonb('server_rate_limit'),
  },
  (t) => [
    // degraded: the run completed, but rejected more than its threshold of what it read.
    check('ingest_runs_status_check', sql`${t.status} in ('running', 'succeeded', 'degraded', 'failed', 'aborted')`),
    index('ingest_runs_job_started_idx').on(t.job, t.startedAt),
    // Each job's latest success (lastSuccessfulRuns, readiness and liveness at start) in one probe,
    // not a scan of years of runs.
    index('ingest_runs_job_success_idx')
      .on(t.job, t.finishedAt)
      .where(sql`${t.status} in ('succeeded', 'degraded')`),
  ],
);

/**
 * Quarantine: upstream records that failed validation, with the reason. A record that keeps
 * arriving unchanged is one row (received_at first, last_received_at latest), not one per run.
 */
export const rejectedRecords = predictionSchema.table(
  'rejected_records',
  {
    rejectionId: bigint('rejection_id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    runId: bigint('run_id', { mode: 'number' }).references(() => ingestRuns.runId),
    endpoint: text('endpoint').notNull(),
    entityId: text('entity_id'),
    reason: text('reason').notNull(),
    payload: jsonb('payload').notNull(),
    payloadHash: text('payload_hash').notNull(),
    receivedAt: timestampTz('received_at').notNull(),
    lastReceivedAt: timestampTz('last_received_at').notNull(),
    lastRunId: bigint('last_run_id', { mode: 'number' }).references(() => ingestRuns.runId),
  },
  (t) => [
    unique('rejected_records_identity_key').on(t.endpoint, t.entityId, t.payloadHash).nullsNotDistinct(),
    index('rejected_records_received_idx').on(t.receivedAt),
  ],
);

/**
 * Shapes of upstream records: one row per endpoint × fingerprint (the sorted key paths with their
 * JSON types), with one example and when and how often it was seen. Tolerant ingestion stores
 * unfamiliar records instead of rejecting them, so this is where a change of the live service's
 * shape shows (read through analytics.upstream_drift).
 */
export const upstreamShapes = predictionSchema.table(
  'upstream_shapes',
  {
    endpoint: text('endpoint').notNull(),
    fingerprint: text('fingerprint').notNull(),
    /** Sorted key paths with their JSON types, e.g. {"pricing.volume:number", "status:string"}. */
    paths: text('paths').array().notNull(),
    /** One record of this shape as received (jsonb-safe), from the observation that created the row; never replaced. */
    example: jsonb('example').notNull(),
    /**
     * How the shape differs from today's contract, as [{kind, path, detail}] (empty: it matches);
     * null for a shape recorded before drift was measured against the contract (migration 0022).
     */
    changes: jsonb('changes'),
    recordsSeen: bigint('records_seen', { mode: 'number' }).notNull(),
    firstSeenAt: timestampTz('first_seen_at').notNull(),
    lastSeenAt: timestampTz('last_seen_at').notNull(),
    firstRunId: bigint('first_run_id', { mode: 'number' }).references(() => ingestRuns.runId),
    lastRunId: bigint('last_run_id', { mode: 'number' }).references(() => ingestRuns.runId),
  },
  (t) => [primaryKey({ columns: [t.endpoint, t.fingerprint] })],
);

/**
 * One row per provider × category listing crawl of a sync run: the only record of which runs
 * covered which listing, and when (events keep only their latest last_seen_at). Read through
 * analytics.data_coverage and analytics.coverage_gaps().
 */
export const crawlCoverage = predictionSchema.table(
  'crawl_coverage',
  {
    runId: bigint('run_id', { mode: 'number' })
      .notNull()
      .references(() => ingestRuns.runId),
    provider: text('provider').notNull(),
    category: text('category').notNull(),
    startedAt: timestampTz('started_at').notNull(),
    /** Null while the crawl runs, or forever if its process died. */
    finishedAt: timestampTz('finished_at'),
    pages: integer('pages').notNull().default(0),
    eventsSeen: integer('events_seen').notNull().default(0),
    /** True once the listing was paged to its end (hasNext false); an aborted crawl covered only part of it. */
    complete: boolean('complete').notNull().default(false),
  },
  (t) => [
    primaryKey({ columns: [t.runId, t.provider, t.category] }),
    // Coverage and gap queries walk one provider × category in time order.
    index('crawl_coverage_provider_category_started_idx').on(t.provider, t.category, t.startedAt),
  ],
);
