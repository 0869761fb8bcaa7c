import { sql } from 'drizzle-orm';
import { boolean, index, text } from 'drizzle-orm/pg-core';

import { events } from './events.js';
import { marketOutcomeColumns, marketTimeColumns } from './marketStateColumns.js';
import { observedRecordColumns } from './observedRecordColumns.js';
import { predictionSchema } from './predictionSchema.js';
import { timestampTz } from './timestampTz.js';

/** Current state of every market ever seen; its status/result/settlement changes live in market_state_history. */
export const markets = predictionSchema.table(
  'markets',
  {
    marketId: text('market_id').primaryKey(),
    eventId: text('event_id')
      .notNull()
      .references(() => events.eventId),
    provider: text('provider').notNull(),
    title: text('title'),
    subtitle: text('subtitle'),
    description: text('description'),
    rulesPrimary: text('rules_primary'),
    rulesSecondary: text('rules_secondary'),
    isTradable: boolean('is_tradable'),
    ...marketOutcomeColumns(),
    ...marketTimeColumns(),
    ...observedRecordColumns(),
    /** Last time the market's own detail (GET /markets/{id}) was fetched; null if never. */
    detailFetchedAt: timestampTz('detail_fetched_at'),
  },
  (t) => [
    index('markets_event_id_idx').on(t.eventId),
    // The detail refresh and the order-book sweep both start from the unsettled markets.
    index('markets_unsettled_idx')
      .on(t.closeTime)
      .where(sql`${t.status} = 'open' or ${t.result} is null or ${t.settlementTime} is null`),
  ],
);
