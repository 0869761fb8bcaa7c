import { primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
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
