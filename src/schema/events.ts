import { sql } from 'drizzle-orm';
import { boolean, index, jsonb, numeric, text, timestamp } from 'drizzle-orm/pg-core';
import { predictionSchema } from './predictionSchema.js';

const tz = { withTimezone: true, mode: 'date' } as const;

/** Current state of every event ever listed; its changes over time live in event_state_history. */
export const events = predictionSchema.table(
  'events',
  {
    eventId: text('event_id').primaryKey(),
    provider: text('provider').notNull(),
    series: text('series'),
    category: text('category'),
    subcategory: text('subcategory'),
    title: text('title'),
    subtitle: text('subtitle'),
    imageUrl: text('image_url'),
    closeCondition: text('close_condition'),
    rulesPdf: text('rules_pdf'),
    multipleWinners: boolean('multiple_winners'),
    isActive: boolean('is_active'),
    isLive: boolean('is_live'),
    isTrending: boolean('is_trending'),
    isRecommended: boolean('is_recommended'),
    winner: text('winner'),
    beginAt: timestamp('begin_at', tz),
    tvlUsd: numeric('tvl_usd'),
    volumeUsd: numeric('volume_usd'),
    raw: jsonb('raw').notNull(),
    drift: text('drift')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    firstSeenAt: timestamp('first_seen_at', tz).notNull(),
    lastSeenAt: timestamp('last_seen_at', tz).notNull(),
    /** Last time any stored value of the row changed (last_seen_at moves on every observation). */
    changedAt: timestamp('changed_at', tz).notNull(),
    /** Hash of the record's values as last received: an identical record is recognised without sending it whole. */
    contentHash: text('content_hash'),
  },
  (t) => [index('events_provider_category_idx').on(t.provider, t.category)],
);
