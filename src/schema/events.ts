import { boolean, index, numeric, text } from 'drizzle-orm/pg-core';

import { observedRecordColumns } from './observedRecordColumns.js';
import { predictionSchema } from './predictionSchema.js';
import { timestampTz } from './timestampTz.js';

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
    beginAt: timestampTz('begin_at'),
    tvlUsd: numeric('tvl_usd'),
    volumeUsd: numeric('volume_usd'),
    ...observedRecordColumns(),
  },
  (t) => [index('events_provider_category_idx').on(t.provider, t.category)],
);
