/**
 * Order books are not stored: they are drawn from a hash of (seed, market, bookVersion), so a
 * book is stable until its market trades, costs no memory, and agrees with the pricing object
 * (best YES bid = sellYes, best NO bid = 100 - buyYes, in cents).
 */
import type { CentLevel } from '../../wire/orderBook.js';
import type { SpecOrderBook } from '../../wire/specShapes.js';
import { hash32, Rng } from './prng.js';
import type { SimMarket } from './simTypes.js';
import type { WorldState } from './worldState.js';

const CENT_MICRO = 10_000;
const MAX_LEVELS = 8;

function side(rng: Rng, bestCents: number, fractional: boolean): CentLevel[] {
  const levels: CentLevel[] = [];
  const count = rng.int(1, MAX_LEVELS);
  for (let priceCents = bestCents; priceCents >= 1 && levels.length < count; priceCents -= rng.int(1, 3)) {
    const whole = Math.floor(Math.exp(rng.next() * 9)) + 1;
    // Polymarket sizes have cents; Kalshi's are whole contracts.
    const size = fractional ? Math.round((whole + rng.next()) * 100) / 100 : whole;
    levels.push([priceCents, size]);
  }
  return levels;
}

/** The market's book, or null when it has none (closed markets, markets without liquidity). */
export function renderOrderBook(state: WorldState, m: SimMarket): SpecOrderBook | null {
  if (m.status === 'closed' || !m.hasBook) return null;
  const rng = Rng.seeded(hash32(state.seed, 'book', m.marketId, m.bookVersion));
  const fractional = state.eventsById.get(m.eventId)!.provider === 'polymarket';
  return {
    yes: side(rng, m.bidMicroUsd / CENT_MICRO, fractional),
    no: side(rng, 100 - m.askMicroUsd / CENT_MICRO, fractional),
  };
}
