import { bigint, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { predictionSchema } from './predictionSchema.js';

const tz = { withTimezone: true, mode: 'date' } as const;

/**
 * One row per scheduled tick of a job that some instance claimed: with several instances on one
 * database, the insert that wins the primary key is the one instance that runs that tick.
 */
export const jobTicks = predictionSchema.table(
  'job_ticks',
  {
    job: text('job').notNull(),
    tickAt: timestamp('tick_at', tz).notNull(),
    instanceId: text('instance_id').notNull(),
    claimedAt: timestamp('claimed_at', tz).notNull(),
  },
  (t) => [primaryKey({ columns: [t.job, t.tickAt] })],
);

/**
 * The upstream API(s) whose data fills this database, by base URL. The service refuses to write
 * data from a different upstream unless told to (it would silently mix two sources).
 */
export const upstreamSources = predictionSchema.table('upstream_sources', {
  apiUrl: text('api_url').primaryKey(),
  firstUsedAt: timestamp('first_used_at', tz).notNull(),
  lastUsedAt: timestamp('last_used_at', tz).notNull(),
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
  acquiredAt: timestamp('acquired_at', tz).notNull(),
  expiresAt: timestamp('expires_at', tz).notNull(),
});

/**
 * The row every write transaction locks first (SELECT ... FOR UPDATE): it serializes writers
 * across processes. Locking a row needs UPDATE on its table, which a read-only login lacks.
 */
export const writeLock = predictionSchema.table('write_lock', {
  name: text('name').primaryKey(),
});
