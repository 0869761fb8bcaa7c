import { boolean, index, numeric, text, timestamp } from 'drizzle-orm/pg-core';

import { observedRecordColumns } from './observedRecordColumns.js';
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
    ...observedRecordColumns(),
  },
  (t) => [index('events_provider_category_idx').on(t.provider, t.category)],
);
