/**
 * Advancing simulated time: due closes and settlements fire in time order, new events appear,
 * and a random subset of open markets trade. Long steps run in sub-steps of at most an hour so
 * that trades and new events are spread over the interval rather than piled at its end.
 */
import { createEvent } from './createEvent.js';
import { closeMarket, settleMarket } from './lifecycle.js';
import { randomCategory, randomProvider } from './populate.js';
import { trade } from './trade.js';
import type { WorldState } from './worldState.js';

const MAX_SUBSTEP_SEC = 3600;

/** What one step changed, so tests can compute expectations without diffing the world. */
export interface StepReport {
  fromSec: number;
  toSec: number;
  closedMarketIds: string[];
  settledMarketIds: string[];
  /** Events that resolved (winner set, isActive false). */
  resolvedEventIds: string[];
  addedEventIds: string[];
  /** Distinct markets that traded (price, volume and book changed). */
  tradedMarketIds: string[];
}

export function step(state: WorldState, seconds: number): StepReport {
  if (!Number.isSafeInteger(seconds) || seconds < 0) {
    throw new RangeError(`step(seconds) needs a non-negative integer, got ${seconds}`);
  }
  const report: StepReport = {
    fromSec: state.nowSec,
    toSec: state.nowSec + seconds,
    closedMarketIds: [],
    settledMarketIds: [],
    resolvedEventIds: [],
    addedEventIds: [],
    tradedMarketIds: [],
  };
  const traded = new Set<string>();
  while (state.nowSec < report.toSec) {
    const subSec = Math.min(MAX_SUBSTEP_SEC, report.toSec - state.nowSec);
    const subEndSec = state.nowSec + subSec;
    fireDue(state, subEndSec, report);
    state.nowSec = subEndSec;
    spawn(state, subSec, report);
    if (state.activity) state.activity.advance(state, subEndSec, traded);
    else tradeSome(state, subSec, traded);
  }
  report.tradedMarketIds = [...traded];
  state.version++;
  return report;
}

function fireDue(state: WorldState, untilSec: number, report: StepReport): void {
  for (let due = state.queue.popDue(untilSec); due; due = state.queue.popDue(untilSec)) {
    state.nowSec = Math.max(state.nowSec, due.atSec);
    const market = state.marketsById.get(due.id)!;
    // Entries go stale when a mutator got there first (closed early, settled by hand).
    if (due.kind === 'close' && market.status === 'open' && market.closeTimeSec <= state.nowSec) {
      closeMarket(state, market);
      report.closedMarketIds.push(market.marketId);
    } else if (due.kind === 'settle' && market.result === null) {
      const resolved = settleMarket(state, market, market.outcome);
      report.settledMarketIds.push(market.marketId);
      if (resolved) report.resolvedEventIds.push(resolved.eventId);
    }
  }
}

function spawn(state: WorldState, subSec: number, report: StepReport): void {
  state.spawnCarry += (subSec * state.settings.newEventsPerDay) / 86_400;
  for (; state.spawnCarry >= 1; state.spawnCarry--) {
    const event = createEvent(state, { provider: randomProvider(state), category: randomCategory(state), createdAtSec: state.nowSec });
    report.addedEventIds.push(event.eventId);
  }
}

function tradeSome(state: WorldState, subSec: number, traded: Set<string>): void {
  const open = state.openMarkets;
  state.tradeCarry += (open.length * state.settings.tradesPerMarketHour * subSec) / 3600;
  const n = Math.min(Math.floor(state.tradeCarry), open.length);
  state.tradeCarry -= Math.floor(state.tradeCarry);
  for (let i = 0; i < n; i++) {
    const market = open[Math.floor(state.rng.next() * open.length)]!;
    trade(state, market);
    traded.add(market.marketId);
  }
}
