import { sql } from 'drizzle-orm';
import { bigint, boolean, check, integer, primaryKey, text } from 'drizzle-orm/pg-core';

import { predictionSchema } from './predictionSchema.js';
import { timestampTz } from './timestampTz.js';

/**
 * One row per scheduled tick of a job that some instance claimed: with several instances on one
 * database, the insert that wins the primary key is the one instance that runs that tick.
 */
export const jobTicks = predictionSchema.table(
  'job_ticks',
  {
    job: text('job').notNull(),
    tickAt: timestampTz('tick_at').notNull(),
    instanceId: text('instance_id').notNull(),
    claimedAt: timestampTz('claimed_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.job, t.tickAt] })],
);

/**
 * The upstream API(s) whose data fills this database, by base URL. The service refuses to write
 * data from a different upstream unless told to (it would silently mix two sources).
 */
export const upstreamSources = predictionSchema.table('upstream_sources', {
  apiUrl: text('api_url').primaryKey(),
  firstUsedAt: timestampTz('first_used_at').notNull(),
  lastUsedAt: timestampTz('last_used_at').notNull(),
});

/**
 * Who runs each job now: a lease that its holder renews while it works and that anyone may take
 * once it has expired (a crashed holder's lease expires after its TTL). `token` counts the
 * acquisitions: every write of a run checks, under a row lock, that the token it acquired still
 * holds an unexpired lease, so a holder that lost it commits nothing more. Only the app's role may
 * read or lock these rows; a read-only login cannot see them, so it cannot hold up a job.
 */
export const jobLeases = predictionSchema.table('job_leases', {
  name: text('name').primaryKey(),
  holder: text('holder').notNull(),
  token: bigint('token', { mode: 'number' }).notNull(),
  acquiredAt: timestampTz('acquired_at').notNull(),
  expiresAt: timestampTz('expires_at').notNull(),
});

/**
 * The row every write transaction locks first (SELECT ... FOR UPDATE): it serializes writers
 * across processes. Locking a row needs UPDATE on its table, which a read-only login lacks.
 */
export const writeLock = predictionSchema.table('write_lock', {
  name: text('name').primaryKey(),
});

/**
 * The settings the latest service to start runs with (one row, written by startService): `plan`
 * replays the schedules the service uses, which may differ from its own process's (the demo's
 * are seconds apart). Several instances on one database share one configuration; the latest wins.
 */
export const serviceSettings = predictionSchema.table(
  'service_settings',
  {
    /** Always true: the table holds one row. */
    singleton: boolean('singleton').primaryKey().default(true),
    instanceId: text('instance_id').notNull(),
    startedAt: timestampTz('started_at').notNull(),
    crawlSchedule: text('crawl_schedule').notNull(),
    tradesSchedule: text('trades_schedule').notNull(),
    detailsSchedule: text('details_schedule').notNull(),
    orderBookSchedule: text('orderbook_schedule').notNull(),
    orderBookMaxAgeSec: integer('orderbook_max_age_sec').notNull(),
    /** Null when the service was started without a plan's rate. */
    rateLimitRpm: integer('rate_limit_rpm'),
  },
  (t) => [check('service_settings_one_row', sql`${t.singleton}`)],
);
