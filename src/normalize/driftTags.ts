import type { DriftTag } from '../domain/types.js';

/**
 * Every tolerated deviation from the spec, as recorded in the `drift` array of a record. A field the
 * spec requires and the record lacks is tagged `missing_<field>` (missingTag); one sent with a type
 * we cannot use is tagged `unreadable_<field>` (unreadableTag) and stored as null.
 */
export const DRIFT = {
  // Event
  missingSeries: 'missing_series',
  missingWinner: 'missing_winner',
  missingTvl: 'missing_tvl',
  tvlAsNumber: 'tvl_as_number',
  missingVolume: 'missing_volume_usd',
  volumeAsNumber: 'volume_as_number',
  volumeFormatted: 'volume_formatted',
  missingBeginAt: 'missing_begin_at',
  beginAtAsNumber: 'begin_at_as_number',
  beginAtFractional: 'begin_at_fractional',
  providerUnknown: 'provider_unknown',
  categoryUnknown: 'category_unknown',
  seriesFromMetadata: 'series_from_metadata',
  marketsNull: 'markets_null',
  flattenedEvent: 'flattened_event',
  // Market
  missingStatus: 'missing_status',
  missingResult: 'missing_result',
  missingOpenTime: 'missing_open_time',
  missingCloseTime: 'missing_close_time',
  missingSettlementTime: 'missing_settlement_time',
  resultEmpty: 'result_empty',
  resultPending: 'result_pending',
  resultUnknown: 'result_unknown',
  statusUnknown: 'status_unknown',
  resolveAt: 'resolve_at',
  flattenedMarket: 'flattened_market',
  pricesAtTopLevel: 'prices_at_top_level',
  pricingAsString: 'pricing_as_string',
  /** A closed market quoting all four prices as 0: no quote, stored as null prices. */
  noQuoteZeroPrices: 'no_quote_zero_prices',
  pricingOutOfRange: 'pricing_out_of_range',
  tradableRenamed: 'tradable_renamed',
  // Order book
  orderBookDollars: 'orderbook_dollars',
  orderBookAscending: 'orderbook_ascending',
  orderBookMergedLevels: 'orderbook_merged_levels',
  orderBookLevelDropped: 'orderbook_level_dropped',
  orderBookDollarsMismatch: 'orderbook_dollars_mismatch',
  // Trade feed
  tradeActionUnknown: 'trade_action_unknown',
  tradeSideUnknown: 'trade_side_unknown',
  tradeAmountAsNumber: 'trade_amount_as_number',
} as const satisfies Record<string, DriftTag>;

export type KnownDriftTag = (typeof DRIFT)[keyof typeof DRIFT];

/** `multipleWinners` -> `missing_multiple_winners`. */
export const missingTag = (field: string): DriftTag => `missing_${snake(field)}`;
/** `isLive` -> `unreadable_is_live`. */
export const unreadableTag = (field: string): DriftTag => `unreadable_${snake(field)}`;

function snake(field: string): string {
  return field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`).replace(/\W/g, '_');
}

/**
 * The market fields the tables need (state history, results, candles): a record that sent one of
 * them in a type we cannot read stored a null in its place. Each maps to the wire fields it is read
 * from, the top level first.
 */
const NEEDED_MARKET_FIELDS = {
  status: ['status', 'metadata.status'],
  result: ['result', 'metadata.result'],
  openTime: ['openTime', 'metadata.openTime'],
  closeTime: ['closeTime', 'metadata.closeTime'],
} as const;

/**
 * The needed fields a market lost to an unreadable value: null in the market, and tagged
 * unreadable where it was read from. A field the record did not send is not lost here: that is a
 * field gone, which the contract reports.
 */
export function lostMarketFields(market: {
  status: unknown;
  result: unknown;
  openTimeSec: unknown;
  closeTimeSec: unknown;
  drift: readonly DriftTag[];
}): string[] {
  const values: Record<keyof typeof NEEDED_MARKET_FIELDS, unknown> = {
    status: market.status,
    result: market.result,
    openTime: market.openTimeSec,
    closeTime: market.closeTimeSec,
  };
  const lost: string[] = [];
  for (const [field, sources] of Object.entries(NEEDED_MARKET_FIELDS) as [keyof typeof NEEDED_MARKET_FIELDS, readonly string[]][]) {
    if (values[field] === null && sources.some((source) => market.drift.includes(unreadableTag(source)))) lost.push(field);
  }
  return lost;
}
