/**
 * The world's fills, for the trade feed (GET /trades): every trade appends one, the oldest are
 * dropped past FILL_LOG_LIMIT. Their side, action and trader come from a stream of their own, so
 * that recording them leaves the world's other draws, and so every other record, as they were.
 */
import type { SimMarket } from './simTypes.js';
import type { WorldState } from './worldState.js';

/** Fills kept: far more than the feed's 20, so that a test can page back through a burst. */
export const FILL_LOG_LIMIT = 1_000;
/** Distinct traders the fills are spread over. */
export const TRADERS = 50;
/** The first fill's number: ids look like the live service's ("order-2357571"). */
const FIRST_FILL = 2_357_000;

/** Appends the fill of a trade of `contracts` on `market` at its current prices. */
export function recordFill(state: WorldState, market: SimMarket, contracts: number): void {
  const rng = state.fillRng;
  const side = rng.chance(0.5) ? 'yes' : 'no';
  const action = rng.chance(0.7) ? 'buy' : 'sell';
  // A buy pays the ask of its side, a sell gets its bid; the NO side is the YES book mirrored.
  const yesPrice = action === 'buy' ? market.askMicroUsd : market.bidMicroUsd;
  const priceMicroUsd = side === 'yes' ? yesPrice : 1_000_000 - (action === 'buy' ? market.bidMicroUsd : market.askMicroUsd);
  state.fills.push({
    seq: FIRST_FILL + state.fillCount,
    marketId: market.marketId,
    eventId: market.eventId,
    atSec: state.nowSec,
    action,
    side,
    priceMicroUsd,
    amountMicroUsd: contracts * priceMicroUsd,
    trader: rng.int(0, TRADERS - 1),
  });
  state.fillCount += 1;
  if (state.fills.length > FILL_LOG_LIMIT) state.fills.splice(0, state.fills.length - FILL_LOG_LIMIT);
}
