/**
 * Builds one event and its markets from a catalog draft and registers them in the world, in the
 * state they would be in "now" (markets whose closeTime has passed are closed, and settled if
 * their settlement lag has passed too), so an initial world already has history.
 */
import { dateText, draftEvent, type EventDraft } from './catalog.js';
import { addToOpen, settleMarket, settlementLag } from './lifecycle.js';
import type { Outcome, SimEvent, SimEventCategory, SimMarket, SimProvider } from './simTypes.js';
import { draftUndocumentedEvent, isUndocumentedCategory } from './undocumentedCatalog.js';
import type { WorldState } from './worldState.js';

export interface NewEventOptions {
  provider: SimProvider;
  category: SimEventCategory;
  createdAtSec: number;
  /** Number of markets; default: the template's (1 for binary events). Extra markets get numbered outcomes. */
  marketCount?: number;
  /** Caps the template's market count (used to hit an exact world size). */
  maxMarkets?: number;
  multipleWinners?: boolean;
  title?: string;
  subcategory?: string;
  /** Unix seconds, or null for no start; default: the template's. */
  beginAtSec?: number | null;
  /** Seconds from creation to the markets' close; default: the template's. */
  durationSec?: number;
}

const CENT_MICRO = 10_000;
const clamp = (x: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, x));

function outcomesFor(draft: EventDraft, count: number | undefined, max: number) {
  if (count === undefined) return draft.outcomes.slice(0, Math.max(1, max));
  return Array.from({ length: count }, (_, i) => draft.outcomes[i] ?? { code: `O${i + 1}`, label: `Outcome ${i + 1}` });
}

/** YES mid prices in cents: a distribution summing to ~100 for single-winner events. */
function midCents(state: WorldState, n: number, multipleWinners: boolean): number[] {
  const { rng } = state;
  if (n === 1 || multipleWinners) return Array.from({ length: n }, () => rng.int(4, 96));
  const weights = Array.from({ length: n }, () => rng.exponential() ** 1.5);
  const total = weights.reduce((a, b) => a + b, 0);
  return weights.map((w) => clamp(Math.round((100 * w) / total), 1, 98));
}

function pickOutcomes(state: WorldState, mids: number[], multipleWinners: boolean): Outcome[] {
  const { rng } = state;
  if (mids.length === 1) return [rng.chance(mids[0]! / 100) ? 'yes' : 'no'];
  if (multipleWinners) {
    const outs = mids.map((m): Outcome => (rng.chance(m / 100) ? 'yes' : 'no'));
    if (!outs.includes('yes')) outs[mids.indexOf(Math.max(...mids))] = 'yes';
    return outs;
  }
  let ticket = rng.next() * mids.reduce((a, b) => a + b, 0);
  const winner = mids.findIndex((m) => (ticket -= m) < 0);
  return mids.map((_, i): Outcome => (i === (winner < 0 ? 0 : winner) ? 'yes' : 'no'));
}

export function createEvent(state: WorldState, opts: NewEventOptions): SimEvent {
  const { rng, ids } = state;
  const draft = isUndocumentedCategory(opts.category)
    ? draftUndocumentedEvent(rng, opts.category, opts.createdAtSec)
    : draftEvent(rng, opts.category, opts.createdAtSec);
  const durationSec = opts.durationSec ?? draft.durationSec;
  const closeTimeSec = opts.createdAtSec + durationSec;
  const multipleWinners = opts.multipleWinners ?? draft.multipleWinners;
  const outcomes = outcomesFor(draft, opts.marketCount, opts.maxMarkets ?? Infinity);
  const kalshi = opts.provider === 'kalshi';
  const eventId = kalshi ? ids.kalshiEvent(draft.kalshiSeries, closeTimeSec) : ids.polymarketEvent();
  const title = opts.title ?? draft.title;
  const beginAtSec =
    opts.beginAtSec !== undefined ? opts.beginAtSec : draft.beginsAfterSec === null ? null : opts.createdAtSec + draft.beginsAfterSec;

  const mids = midCents(state, outcomes.length, multipleWinners);
  const truths = pickOutcomes(state, mids, multipleWinners);
  const markets: SimMarket[] = outcomes.map((outcome, i) => {
    const spreadCents = rng.int(1, 3);
    const bidCents = clamp(mids[i]! - Math.floor(spreadCents / 2), 1, 98);
    const askCents = clamp(bidCents + spreadCents, bidCents + 1, 99);
    const contracts = Math.floor(Math.exp(rng.next() * 11));
    const recent = rng.chance(0.2);
    const sinceCreatedSec = Math.max(0, state.nowSec - opts.createdAtSec);
    const askMicroUsd = askCents * CENT_MICRO;
    return {
      marketId: kalshi ? ids.kalshiMarket(eventId, outcome.code) : ids.polymarketMarket(),
      eventId,
      title: outcomes.length === 1 ? title : outcome.label,
      subtitle: outcomes.length === 1 ? draft.subtitle : `${outcome.label}: ${draft.subtitle}`,
      openTimeSec: opts.createdAtSec,
      closeTimeSec,
      settlementTimeSec: 0,
      status: 'open',
      result: null,
      outcome: truths[i]!,
      bidMicroUsd: bidCents * CENT_MICRO,
      askMicroUsd,
      // Kalshi trades whole contracts; Polymarket shares have cents.
      volumeCenti: contracts * 100 + (kalshi ? 0 : rng.int(0, 99)),
      notionalMicroUsd: contracts * askMicroUsd,
      bookVersion: 0,
      hasBook: !rng.chance(0.03),
      lastTradeSec: clamp(
        recent ? state.nowSec - rng.int(0, 3599) : opts.createdAtSec + rng.int(0, sinceCreatedSec),
        opts.createdAtSec,
        closeTimeSec,
      ),
      openIndex: -1,
    };
  });

  const volumeMicroUsd = markets.reduce((sum, m) => sum + m.notionalMicroUsd, 0);
  const event: SimEvent = {
    eventId,
    provider: opts.provider,
    series: kalshi ? draft.kalshiSeries : draft.polySeries,
    category: opts.category,
    subcategory: opts.subcategory ?? draft.subcategory,
    title,
    titleLower: title.toLowerCase(),
    subtitle: draft.subtitle,
    closeCondition: `Closes at ${new Date(closeTimeSec * 1000).toISOString()} (${dateText(closeTimeSec)}) or earlier if the outcome is known.`,
    multipleWinners,
    createdAtSec: opts.createdAtSec,
    beginAtSec,
    isActive: true,
    winner: '',
    volumeMicroUsd,
    tvlMicroUsd: Math.floor(volumeMicroUsd * (0.05 + rng.next() * 0.3)),
    lastTradeSec: Math.max(...markets.map((m) => m.lastTradeSec)),
    marketIds: markets.map((m) => m.marketId),
    unresolvedCount: markets.length,
    ordinal: state.events.length,
  };
  state.events.push(event);
  state.eventsById.set(eventId, event);
  for (const m of markets) {
    state.marketsById.set(m.marketId, m);
    catchUp(state, m);
  }
  state.version++;
  return event;
}

/** Puts a new market in the state its times imply at `state.nowSec`. */
function catchUp(state: WorldState, market: SimMarket): void {
  if (market.closeTimeSec > state.nowSec) {
    addToOpen(state, market);
    state.queue.push({ atSec: market.closeTimeSec, kind: 'close', id: market.marketId });
    return;
  }
  market.status = 'closed';
  const settleAtSec = market.closeTimeSec + settlementLag(state);
  if (settleAtSec > state.nowSec) {
    state.queue.push({ atSec: settleAtSec, kind: 'settle', id: market.marketId });
    return;
  }
  const nowSec = state.nowSec;
  state.nowSec = settleAtSec; // settle "in the past" so settlementTime is historic
  settleMarket(state, market, market.outcome);
  state.nowSec = nowSec;
}
