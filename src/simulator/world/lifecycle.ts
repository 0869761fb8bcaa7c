/**
 * Market and event transitions: open -> closed (at closeTime) -> settled (after a lag, result
 * yes/no, settlementTime set) and, when every market of an event is settled, the event resolves
 * (winner set, isActive false: it leaves the /events listing but stays readable by id).
 */
import type { Outcome, SimEvent, SimMarket } from './simTypes.js';
import type { WorldState } from './worldState.js';

const MICRO_PER_USD = 1_000_000;

export function addToOpen(state: WorldState, market: SimMarket): void {
  market.openIndex = state.openMarkets.length;
  state.openMarkets.push(market);
}

function removeFromOpen(state: WorldState, market: SimMarket): void {
  const i = market.openIndex;
  if (i < 0) return;
  const last = state.openMarkets.pop()!;
  if (last !== market) {
    state.openMarkets[i] = last;
    last.openIndex = i;
  }
  market.openIndex = -1;
}

export function settlementLag(state: WorldState): number {
  const [min, max] = state.settings.settlementLagSec;
  return state.rng.int(min, max);
}

/** Closes an open market now (early if before its closeTime) and schedules its settlement. */
export function closeMarket(state: WorldState, market: SimMarket): boolean {
  if (market.status === 'closed') return false;
  market.status = 'closed';
  market.closeTimeSec = Math.min(market.closeTimeSec, state.nowSec);
  market.bookVersion++;
  removeFromOpen(state, market);
  state.queue.push({ atSec: state.nowSec + settlementLag(state), kind: 'settle', id: market.marketId });
  state.version++;
  return true;
}

/** Settles a market with `result` now (closing it first if needed). Returns the event if it resolved. */
export function settleMarket(state: WorldState, market: SimMarket, result: Outcome): SimEvent | undefined {
  if (market.result !== null) return undefined;
  if (market.status === 'open') {
    market.status = 'closed';
    market.closeTimeSec = Math.min(market.closeTimeSec, state.nowSec);
    removeFromOpen(state, market);
  }
  market.result = result;
  market.outcome = result;
  market.settlementTimeSec = state.nowSec;
  // A settled contract is worth exactly $1 or $0.
  market.bidMicroUsd = market.askMicroUsd = result === 'yes' ? MICRO_PER_USD : 0;
  market.bookVersion++;
  state.version++;
  const event = state.eventsById.get(market.eventId)!;
  event.unresolvedCount--;
  return event.unresolvedCount === 0 ? resolveEvent(state, event) : undefined;
}

function resolveEvent(state: WorldState, event: SimEvent): SimEvent {
  // With multiple winners the first winning market (in event order) is reported; if a test
  // settled every market "no", the winner stays '' (the spec has no value for "nobody won").
  const winner = event.marketIds.find((id) => state.marketsById.get(id)!.result === 'yes');
  event.winner = winner ?? '';
  event.isActive = false;
  state.version++;
  return event;
}

/**
 * Sets who will win, keeping single-winner events consistent: making one market win makes the
 * other unsettled ones lose; making the winner lose hands the win to the priciest unsettled one.
 */
export function assignOutcome(state: WorldState, market: SimMarket, outcome: Outcome): void {
  const event = state.eventsById.get(market.eventId)!;
  market.outcome = outcome;
  if (event.multipleWinners) return;
  const others = event.marketIds.map((id) => state.marketsById.get(id)!).filter((m) => m !== market && m.result === null);
  if (outcome === 'yes') {
    for (const m of others) m.outcome = 'no';
  } else if (!others.some((m) => m.outcome === 'yes') && others.length > 0) {
    const best = others.reduce((a, b) => (b.askMicroUsd > a.askMicroUsd ? b : a));
    best.outcome = 'yes';
  }
}

/** Removes an event from the listing without resolving it (upstream delists events too). */
export function delistEvent(state: WorldState, event: SimEvent): boolean {
  if (!event.isActive) return false;
  event.isActive = false;
  state.version++;
  return true;
}
