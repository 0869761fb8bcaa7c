/**
 * The quote columns the analytics price views share (price_history, market_latest, price_as_of and
 * prices_as_of), in the order they declare them: the four raw prices, then the quote derived from them.
 */
export const QUOTE_COLUMNS = [
  'buy_yes_usd',
  'sell_yes_usd',
  'buy_no_usd',
  'sell_no_usd',
  'yes_bid_usd',
  'yes_ask_usd',
  'yes_mid_usd',
  'yes_spread_usd',
  'implied_yes_probability',
] as const;
