import { bigint, boolean, integer, jsonb, numeric, pgSchema, text } from 'drizzle-orm/pg-core';

import { marketOutcomeColumns, marketTimeColumns } from './marketStateColumns.js';
import { timestampTz } from './timestampTz.js';

/**
 * The read-only analyst surface (views and functions over `prediction`, see docs/queries.md).
 * The schema itself is generated from this declaration (0003_crawl_coverage.sql), so drizzle-kit
 * knows it exists; its views and functions are hand-written SQL (0004_analytics.sql).
 */
export const analyticsSchema = pgSchema('analytics');

/**
 * The quote columns the price views share: USD (micro-USD × 10⁻⁶), mid, spread, implied
 * probability. Bid/ask skip upstream's "nothing there" prices (0 bid, 1,000,000 ask), so mid,
 * spread and probability are null when a side is missing (0008_analytics_edge_prices_and_drift.sql).
 */
const quoteColumns = () => ({
  buyYesUsd: numeric('buy_yes_usd'),
  sellYesUsd: numeric('sell_yes_usd'),
  buyNoUsd: numeric('buy_no_usd'),
  sellNoUsd: numeric('sell_no_usd'),
  yesBidUsd: numeric('yes_bid_usd'),
  yesAskUsd: numeric('yes_ask_usd'),
  yesMidUsd: numeric('yes_mid_usd'),
  yesSpreadUsd: numeric('yes_spread_usd'),
  impliedYesProbability: numeric('implied_yes_probability'),
  volume: numeric('volume'),
});

// ---------------------------------------------------------------------------------------------
// The views, for reading them through the ORM. `.existing()` keeps drizzle-kit from generating
// them; test/analytics/ormViews.test.ts checks these columns against the database. Descriptions,
// with units, live in the database (COMMENT ON), where Metabase and psql show them.

export const marketLatest = analyticsSchema
  .view('market_latest', {
    marketId: text('market_id').notNull(),
    eventId: text('event_id').notNull(),
    provider: text('provider').notNull(),
    category: text('category'),
    eventTitle: text('event_title'),
    title: text('title'),
    ...marketOutcomeColumns(),
    isTradable: boolean('is_tradable'),
    ...marketTimeColumns(),
    firstSeenAt: timestampTz('first_seen_at').notNull(),
    lastSeenAt: timestampTz('last_seen_at').notNull(),
    quoteObservedAt: timestampTz('quote_observed_at'),
    quoteLastObservedAt: timestampTz('quote_last_observed_at'),
    ...quoteColumns(),
    /** Pricing volume, whole USD on the live service (same value as `volume`). */
    volumeUsd: numeric('volume_usd'),
    /** The event's volumeUsd as received: micro-USD on the live service. */
    eventVolumeMicroUsd: numeric('event_volume_micro_usd'),
  })
  .existing();

export const priceHistory = analyticsSchema
  .view('price_history', {
    marketId: text('market_id').notNull(),
    validFrom: timestampTz('valid_from').notNull(),
    validTo: timestampTz('valid_to'),
    lastObservedAt: timestampTz('last_observed_at').notNull(),
    ...quoteColumns(),
    /** Pricing volume, whole USD on the live service (same value as `volume`). */
    volumeUsd: numeric('volume_usd'),
  })
  .existing();

export const orderbookTop = analyticsSchema
  .view('orderbook_top', {
    marketId: text('market_id').notNull(),
    snapshotId: bigint('snapshot_id', { mode: 'number' }).notNull(),
    validFrom: timestampTz('valid_from').notNull(),
    validTo: timestampTz('valid_to'),
    lastObservedAt: timestampTz('last_observed_at').notNull(),
    isNull: boolean('is_null').notNull(),
    bestYesBidCents: numeric('best_yes_bid_cents'),
    bestNoBidCents: numeric('best_no_bid_cents'),
    bestYesAskCents: numeric('best_yes_ask_cents'),
    spreadCents: numeric('spread_cents'),
    midCents: numeric('mid_cents'),
    impliedYesProbability: numeric('implied_yes_probability'),
    yesBidDepth1cContracts: numeric('yes_bid_depth_1c_contracts'),
    yesBidDepth5cContracts: numeric('yes_bid_depth_5c_contracts'),
    yesBidDepth10cContracts: numeric('yes_bid_depth_10c_contracts'),
    yesBidTotalContracts: numeric('yes_bid_total_contracts'),
    yesAskDepth1cContracts: numeric('yes_ask_depth_1c_contracts'),
    yesAskDepth5cContracts: numeric('yes_ask_depth_5c_contracts'),
    yesAskDepth10cContracts: numeric('yes_ask_depth_10c_contracts'),
    yesAskTotalContracts: numeric('yes_ask_total_contracts'),
  })
  .existing();

export const orderbookDepth = analyticsSchema
  .view('orderbook_depth', {
    marketId: text('market_id').notNull(),
    snapshotId: bigint('snapshot_id', { mode: 'number' }).notNull(),
    validFrom: timestampTz('valid_from').notNull(),
    yesSide: text('yes_side').notNull(),
    levelRank: bigint('level_rank', { mode: 'number' }).notNull(),
    yesPriceCents: numeric('yes_price_cents').notNull(),
    distanceFromBestCents: numeric('distance_from_best_cents').notNull(),
    sizeContracts: numeric('size_contracts').notNull(),
    cumulativeContracts: numeric('cumulative_contracts').notNull(),
    cumulativeUsd: numeric('cumulative_usd').notNull(),
    averagePriceCents: numeric('average_price_cents').notNull(),
    bookSide: text('book_side').notNull(),
    bookPriceCents: numeric('book_price_cents').notNull(),
  })
  .existing();

export const marketResolutions = analyticsSchema
  .view('market_resolutions', {
    marketId: text('market_id').notNull(),
    eventId: text('event_id').notNull(),
    provider: text('provider').notNull(),
    category: text('category'),
    title: text('title'),
    ...marketOutcomeColumns(),
    isSettled: boolean('is_settled').notNull(),
    ...marketTimeColumns(),
    firstSeenAt: timestampTz('first_seen_at').notNull(),
    closedFirstObservedAt: timestampTz('closed_first_observed_at'),
    settlementTimeFirstObservedAt: timestampTz('settlement_time_first_observed_at'),
    settledLastPendingObservedAt: timestampTz('settled_last_pending_observed_at'),
    settledFirstObservedAt: timestampTz('settled_first_observed_at'),
    settlementLagSeconds: numeric('settlement_lag_seconds'),
    observedSettlementLagMinSeconds: numeric('observed_settlement_lag_min_seconds'),
    observedSettlementLagMaxSeconds: numeric('observed_settlement_lag_max_seconds'),
  })
  .existing();

export const dataCoverage = analyticsSchema
  .view('data_coverage', {
    runId: bigint('run_id', { mode: 'number' }).notNull(),
    job: text('job').notNull(),
    runStatus: text('run_status').notNull(),
    provider: text('provider').notNull(),
    category: text('category').notNull(),
    startedAt: timestampTz('started_at').notNull(),
    finishedAt: timestampTz('finished_at'),
    durationSeconds: numeric('duration_seconds'),
    pages: integer('pages').notNull(),
    eventsSeen: integer('events_seen').notNull(),
    complete: boolean('complete').notNull(),
    previousCompleteStartedAt: timestampTz('previous_complete_started_at'),
    sincePreviousCompleteSeconds: numeric('since_previous_complete_seconds'),
    /** The crawl started before the retention horizon: the prices it saw were dropped. */
    historyAbsent: boolean('history_absent').notNull(),
  })
  .existing();

/** Per table whose old months retention dropped: the horizon before which its data is absent. */
export const historyHorizons = analyticsSchema
  .view('history_horizons', {
    tableName: text('table_name').notNull(),
    horizon: timestampTz('horizon').notNull(),
    partitionsDropped: integer('partitions_dropped').notNull(),
    rowsDropped: bigint('rows_dropped', { mode: 'number' }).notNull(),
    lastDroppedAt: timestampTz('last_dropped_at').notNull(),
  })
  .existing();

export const dataFreshness = analyticsSchema
  .view('data_freshness', {
    provider: text('provider').notNull(),
    category: text('category'),
    events: bigint('events', { mode: 'number' }).notNull(),
    activeEvents: bigint('active_events', { mode: 'number' }).notNull(),
    eventsLastSeenAt: timestampTz('events_last_seen_at'),
    markets: bigint('markets', { mode: 'number' }).notNull(),
    openMarkets: bigint('open_markets', { mode: 'number' }).notNull(),
    marketsLastSeenAt: timestampTz('markets_last_seen_at'),
    lastCompleteCrawlStartedAt: timestampTz('last_complete_crawl_started_at'),
    lastCompleteCrawlFinishedAt: timestampTz('last_complete_crawl_finished_at'),
  })
  .existing();

/** One row per endpoint × change against today's contract (migration 0022). */
export const upstreamDrift = analyticsSchema
  .view('upstream_drift', {
    endpoint: text('endpoint').notNull(),
    /** new_field, field_gone, changed_type or new_value. */
    kind: text('kind').notNull(),
    path: text('path').notNull(),
    detail: text('detail').notNull(),
    firstSeenAt: timestampTz('first_seen_at').notNull(),
    lastSeenAt: timestampTz('last_seen_at').notNull(),
    recordsSeen: bigint('records_seen', { mode: 'number' }).notNull(),
    isCurrent: boolean('is_current').notNull(),
    example: jsonb('example').notNull(),
  })
  .existing();

export const tradeCoverage = analyticsSchema
  .view('trade_coverage', {
    pollId: bigint('poll_id', { mode: 'number' }).notNull(),
    runId: bigint('run_id', { mode: 'number' }),
    polledAt: timestampTz('polled_at').notNull(),
    coversFrom: timestampTz('covers_from').notNull(),
    coversTo: timestampTz('covers_to').notNull(),
    gapBefore: boolean('gap_before').notNull(),
    tradesSeen: integer('trades_seen').notNull(),
    tradesNew: integer('trades_new').notNull(),
  })
  .existing();

export const tradesWithMid = analyticsSchema
  .view('trades_with_mid', {
    tradeId: text('trade_id').notNull(),
    marketId: text('market_id').notNull(),
    eventId: text('event_id'),
    tradedAt: timestampTz('traded_at').notNull(),
    action: text('action').notNull(),
    side: text('side').notNull(),
    priceUsd: numeric('price_usd').notNull(),
    amountUsd: numeric('amount_usd').notNull(),
    yesPriceUsd: numeric('yes_price_usd'),
    quotedYesMidUsd: numeric('quoted_yes_mid_usd'),
    quoteObservedAt: timestampTz('quote_observed_at'),
    yesPriceMinusMidUsd: numeric('yes_price_minus_mid_usd'),
  })
  .existing();
