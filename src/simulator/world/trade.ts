/**
 * One trade on one market: the YES price takes a small random step (slightly biased towards
 * the hidden outcome, as markets learn), the spread may change, volume grows, and the event's
 * volume, TVL and last-trade time follow, and the fill joins the trade feed. Only traded markets change, so untouched data stays
 * byte-identical between steps.
 */
import { recordFill } from './fills.js';
import type { SimMarket } from './simTypes.js';
import type { WorldState } from './worldState.js';

const CENT_MICRO = 10_000;

export function trade(state: WorldState, market: SimMarket): void {
  const { rng } = state;
  const event = state.eventsById.get(market.eventId)!;
  const bias = rng.chance(0.3) ? (market.outcome === 'yes' ? 1 : -1) : 0;
  const spreadCents = rng.chance(0.2) ? rng.int(1, 3) : (market.askMicroUsd - market.bidMicroUsd) / CENT_MICRO;
  const bidCents = Math.max(1, Math.min(99 - spreadCents, market.bidMicroUsd / CENT_MICRO + rng.int(-3, 3) + bias));
  market.bidMicroUsd = bidCents * CENT_MICRO;
  market.askMicroUsd = (bidCents + spreadCents) * CENT_MICRO;

  const contracts = 1 + Math.floor(Math.exp(rng.next() * 7));
  const kalshi = event.provider === 'kalshi';
  market.volumeCenti += contracts * 100 + (kalshi ? 0 : rng.int(0, 99));
  market.lastTradeSec = state.nowSec;
  market.bookVersion++;

  const notionalMicroUsd = contracts * market.askMicroUsd;
  market.notionalMicroUsd += notionalMicroUsd;
  event.volumeMicroUsd += notionalMicroUsd;
  // Open interest moves both ways; never below zero.
  event.tvlMicroUsd = Math.max(0, event.tvlMicroUsd + (rng.chance(0.6) ? notionalMicroUsd : -notionalMicroUsd));
  event.lastTradeSec = state.nowSec;
  recordFill(state, market, contracts);
}
