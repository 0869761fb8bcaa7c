/**
 * Today's order books: bids on both sides at tenth-of-a-cent prices, ascending, not merged. The
 * cent arrays round each price to whole cents, so neighbouring levels repeat a cent price (the
 * live service's YES side had five levels at 100 cents, from $0.995 to $0.999); the dollar arrays
 * keep the exact, distinct prices. Drawn from a hash of (seed, market, bookVersion) like the
 * spec's books, and topped by the market's prices: best YES bid = sellYes, best NO bid = 1 - buyYes.
 */
import type { LiveOrderBook } from '../../wire/liveShapes.js';
import type { CentLevel, DollarLevel } from '../../wire/orderBook.js';
import { MICRO_PER_USD, microUsdAsDollars } from '../world/money.js';
import { hash32, Rng, unitHash } from '../world/prng.js';
import type { SimMarket } from '../world/simTypes.js';
import type { WorldState } from '../world/worldState.js';

const TENTH_CENT_MICRO = 1_000;
const CENT_MICRO = 10_000;
/** Share of books with one side empty ("no: []" was seen live). */
const EMPTY_SIDE_SHARE = 0.06;
/** Share of dense books (steps of 0.1-0.3 cents, 6+ levels): those always repeat cent prices. */
const DENSE_SHARE = 0.5;

/** The side of a market's live book that has no bids, if any: stable for the market's life. */
export function emptyBookSide(seed: number, marketId: string): 'yes' | 'no' | null {
  const h = unitHash(seed, 'empty-side', marketId);
  if (h >= EMPTY_SIDE_SHARE) return null;
  return h < EMPTY_SIDE_SHARE / 2 ? 'yes' : 'no';
}

/** [priceMicroUsd, size] bids from `bestMicroUsd` down, returned ascending. */
function side(rng: Rng, bestMicroUsd: number, dense: boolean, fractional: boolean): Array<[number, number]> {
  const count = dense ? rng.int(6, 30) : rng.int(1, 12);
  const levels: Array<[number, number]> = [];
  for (
    let price = bestMicroUsd;
    price >= TENTH_CENT_MICRO && levels.length < count;
    price -= TENTH_CENT_MICRO * rng.int(1, dense ? 3 : 12)
  ) {
    const whole = Math.floor(Math.exp(rng.next() * 13)) + 1;
    // Polymarket sizes have cents (659518.58 was seen live); Kalshi's are whole contracts.
    levels.push([price, fractional ? Math.round((whole + rng.next()) * 100) / 100 : whole]);
  }
  return levels.reverse();
}

const cents = (levels: Array<[number, number]>): CentLevel[] => levels.map(([micro, size]) => [Math.round(micro / CENT_MICRO), size]);
const dollars = (levels: Array<[number, number]>): DollarLevel[] => levels.map(([micro, size]) => [microUsdAsDollars(micro), size]);

/** The live book, or null when the market has none (closed markets, markets without liquidity), as in the spec profile. */
export function renderLiveBook(state: WorldState, m: SimMarket): LiveOrderBook | null {
  if (m.status === 'closed' || !m.hasBook) return null;
  const rng = Rng.seeded(hash32(state.seed, 'live-book', m.marketId, m.bookVersion));
  const dense = unitHash(state.seed, 'dense-book', m.marketId) < DENSE_SHARE;
  const fractional = state.eventsById.get(m.eventId)!.provider === 'polymarket';
  const empty = emptyBookSide(state.seed, m.marketId);
  const yes = empty === 'yes' ? [] : side(rng, m.bidMicroUsd, dense, fractional);
  const no = empty === 'no' ? [] : side(rng, MICRO_PER_USD - m.askMicroUsd, dense, fractional);
  return { yes: cents(yes), no: cents(no), yes_dollars: dollars(yes), no_dollars: dollars(no) };
}
