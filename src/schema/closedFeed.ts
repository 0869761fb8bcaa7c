import { bigint, index, integer, jsonb, primaryKey, text } from 'drizzle-orm/pg-core';

import { ingestRuns } from './ingest.js';
import { predictionSchema } from './predictionSchema.js';
import { timestampTz } from './timestampTz.js';

/**
 * How far GET /events/closed has been read, per provider: the next read asks for events updated
 * since `readThrough` minus an overlap. Moved only once a read was paged to its end, so a read cut
 * short is read again from the same point.
 */
export const closedFeedWatermarks = predictionSchema.table('closed_feed_watermarks', {
  provider: text('provider').primaryKey(),
  /** The `timestamp` the service gave the first page of the last complete read (else when it was asked). */
  readThrough: timestampTz('read_through').notNull(),
  /** Pages and events of that read: what `plan` expects the next one to take. */
  pages: integer('pages').notNull(),
  eventsSeen: integer('events_seen').notNull(),
  runId: bigint('run_id', { mode: 'number' }).references(() => ingestRuns.runId),
  updatedAt: timestampTz('updated_at').notNull(),
});

/**
 * Where a backfill of GET /events/closed stands, per provider and `since`: the next `start` to ask
 * for, so that a backfill stopped midway resumes there. `finishedAt` is set once paged to its end.
 */
export const closedFeedBackfills = predictionSchema.table(
  'closed_feed_backfills',
  {
    provider: text('provider').notNull(),
    since: timestampTz('since').notNull(),
    nextStart: integer('next_start').notNull(),
    /** The service's `pagination.total` on the last page read. */
    total: integer('total').notNull(),
    eventsSeen: integer('events_seen').notNull(),
    /**
     * The earliest close or settlement among the markets answered so far: when it lies well after
     * `since`, the service answered less far back than asked.
     */
    oldestEndedAt: timestampTz('oldest_ended_at'),
    startedAt: timestampTz('started_at').notNull(),
    updatedAt: timestampTz('updated_at').notNull(),
    finishedAt: timestampTz('finished_at'),
  },
  (t) => [primaryKey({ columns: [t.provider, t.since] })],
);

/**
 * The service's own event counts (GET /events/categories), per run, provider and category: set
 * beside what the crawl listed, they show a category the crawl misses.
 */
export const categoryCounts = predictionSchema.table(
  'category_counts',
  {
    runId: bigint('run_id', { mode: 'number' })
      .notNull()
      .references(() => ingestRuns.runId),
    provider: text('provider').notNull(),
    category: text('category').notNull(),
    eventCount: integer('event_count').notNull(),
    /** [{subcategory, eventCount}] as the service counted them. */
    subcategories: jsonb('subcategories').notNull(),
    observedAt: timestampTz('observed_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.runId, t.provider, t.category] }),
    // status reads the latest counts of each provider.
    index('category_counts_provider_observed_idx').on(t.provider, t.observedAt),
  ],
);
