import type { DriftTag } from '../domain/types.js';

/** Every tolerated deviation from the spec, as recorded in the `drift` array of a record. */
export const DRIFT = {
  // Event
  missingSeries: 'missing_series',
  missingWinner: 'missing_winner',
  missingTvl: 'missing_tvl',
  tvlAsNumber: 'tvl_as_number',
  volumeAsNumber: 'volume_as_number',
  volumeFormatted: 'volume_formatted',
  beginAtAsNumber: 'begin_at_as_number',
  providerUnknown: 'provider_unknown',
  marketsNull: 'markets_null',
  flattenedEvent: 'flattened_event',
  // Market
  resultEmpty: 'result_empty',
  resultPending: 'result_pending',
  resolveAt: 'resolve_at',
  flattenedMarket: 'flattened_market',
  pricingAsString: 'pricing_as_string',
  // Order book
  orderBookDollars: 'orderbook_dollars',
  orderBookAscending: 'orderbook_ascending',
} as const satisfies Record<string, DriftTag>;

export type KnownDriftTag = (typeof DRIFT)[keyof typeof DRIFT];
