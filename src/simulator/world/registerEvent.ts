/**
 * Registers an event and its markets built by hand (not drafted from the catalog), open from now
 * and closing after `durationSec`, as createEvent registers the catalog's. Prices and volumes are
 * given or derived without the world's random stream, so adding such an event leaves the rest of
 * the world's evolution as it would have been.
 */
import { addToOpen } from './lifecycle.js';
import type { Outcome, SimEvent, SimEventCategory, SimMarket, SimProvider } from './simTypes.js';
import type { WorldState } from './worldState.js';

const CENT_MICRO = 10_000;

export interface HandEvent {
  eventId: string;
  provider: SimProvider;
  category: SimEventCategory;
  subcategory: string;
  title: string;
  series: string;
  durationSec: number;
}

export interface HandMarket {
  marketId: string;
  title: string;
  /** How it will settle. */
  outcome: Outcome;
  bidCents: number;
  askCents: number;
}

/** When an open market closes: its close time. */
export const lifecycleCloseAt = (m: SimMarket): number => m.closeTimeSec;

export function registerEvent(state: WorldState, e: HandEvent, markets: readonly HandMarket[]): SimEvent {
  const openSec = state.nowSec;
  const closeTimeSec = openSec + e.durationSec;
  const built: SimMarket[] = markets.map((m) => ({
    marketId: m.marketId,
    eventId: e.eventId,
    title: m.title,
    subtitle: '',
    openTimeSec: openSec,
    closeTimeSec,
    settlementTimeSec: 0,
    status: 'open',
    result: null,
    outcome: m.outcome,
    bidMicroUsd: m.bidCents * CENT_MICRO,
    askMicroUsd: m.askCents * CENT_MICRO,
    volumeCenti: 100_000,
    notionalMicroUsd: 1_000 * m.askCents * CENT_MICRO,
    bookVersion: 0,
    hasBook: true,
    lastTradeSec: openSec,
    openIndex: -1,
  }));
  const volumeMicroUsd = built.reduce((n, m) => n + m.notionalMicroUsd, 0);
  const event: SimEvent = {
    eventId: e.eventId,
    provider: e.provider,
    series: e.series,
    category: e.category,
    subcategory: e.subcategory,
    title: e.title,
    titleLower: e.title.toLowerCase(),
    subtitle: '',
    closeCondition: `Closes at ${new Date(closeTimeSec * 1000).toISOString()}.`,
    multipleWinners: false,
    createdAtSec: openSec,
    beginAtSec: openSec,
    isActive: true,
    winner: '',
    volumeMicroUsd,
    tvlMicroUsd: Math.floor(volumeMicroUsd / 10),
    lastTradeSec: openSec,
    marketIds: built.map((m) => m.marketId),
    unresolvedCount: built.length,
    ordinal: state.events.length,
  };
  state.events.push(event);
  state.eventsById.set(event.eventId, event);
  for (const m of built) {
    state.marketsById.set(m.marketId, m);
    addToOpen(state, m);
    state.queue.push({ atSec: m.closeTimeSec, kind: 'close', id: m.marketId });
  }
  state.version++;
  return event;
}
