/**
 * Today's flat market (no nested metadata, resolveAt instead of settlementTime) and its pricing:
 * micro-USD integers, all four 0 once the market is closed (no quote, not a price of $0), 0 or
 * $1 on the side of an empty book half, and `volume` in whole dollars.
 */
import type { LiveMarket, LivePricing } from '../../wire/liveShapes.js';
import { MICRO_PER_USD } from '../world/money.js';
import { unitHash } from '../world/prng.js';
import { servedMs, servedSec } from '../world/servedTime.js';
import type { SimEvent, SimMarket } from '../world/simTypes.js';
import { marketRules, quotePrices } from '../world/wire.js';
import type { WorldState } from '../world/worldState.js';
import { clobTokenIds, resultPubkey } from './fakeIdentifiers.js';
import { emptyBookSide } from './liveBook.js';
import { flavorMarket } from './liveFlavors.js';

/** Share of markets sent with `imageUrl: null`. */
const NO_IMAGE_SHARE = 0.3;
const TEAM_CATEGORIES: readonly string[] = ['sports', 'esports'];

/** Whole dollars traded: what the live `pricing.volume` carries. */
export function volumeDollars(m: SimMarket): number {
  return Math.floor(m.notionalMicroUsd / MICRO_PER_USD);
}

export function livePricing(seed: number, m: SimMarket): LivePricing {
  const volume = volumeDollars(m);
  if (m.status === 'closed') return { buyYesPriceUsd: 0, buyNoPriceUsd: 0, sellYesPriceUsd: 0, sellNoPriceUsd: 0, volume };
  // An empty book side means no bid there: a NO side without bids leaves YES without an ask.
  const empty = m.hasBook ? emptyBookSide(seed, m.marketId) : null;
  const bid = empty === 'yes' ? 0 : m.bidMicroUsd;
  const ask = empty === 'no' ? MICRO_PER_USD : m.askMicroUsd;
  return { ...quotePrices(bid, ask), volume };
}

/**
 * ISO 8601 with milliseconds ("2026-07-24T05:14:12.365Z"); the milliseconds are a hash, as the world
 * keeps whole seconds. A world served at a speed-up has real milliseconds: its settlement's own
 * (a hash could date it up to a second after the poll that saw it).
 */
export function resolveAtIso(state: WorldState, m: SimMarket): string | null {
  if (m.result === null) return null;
  if (state.served.speed !== 1) return new Date(servedMs(state, m.settlementTimeSec)).toISOString();
  const ms = Math.floor(unitHash(state.seed, 'resolve-ms', m.marketId) * 1000);
  return new Date(m.settlementTimeSec * 1000 + ms).toISOString();
}

/** Markets of multi-outcome sports and esports events are teams (or a draw). */
export function isTeamMarket(event: SimEvent): boolean {
  return TEAM_CATEGORIES.includes(event.category) && event.marketIds.length > 1;
}

export interface LiveMarketOptions {
  /** As GET /markets/{id} answers it: with `eventId` (markets nested in an event carry none). */
  detail: boolean;
}

export function renderLiveMarket(state: WorldState, m: SimMarket, opts: LiveMarketOptions): LiveMarket {
  const { seed } = state;
  const event: SimEvent = state.eventsById.get(m.eventId)!;
  const pricing = livePricing(seed, m);
  const teams = isTeamMarket(event);
  return flavorMarket(state, m, {
    provider: event.provider,
    marketId: m.marketId,
    ...(opts.detail ? { eventId: m.eventId } : {}),
    status: m.status,
    result: m.result,
    marketResultPubkey: m.result === null ? null : resultPubkey(seed, m.marketId),
    title: m.title,
    openTime: servedSec(state, m.openTimeSec),
    closeTime: servedSec(state, m.closeTimeSec),
    isTeamMarket: teams,
    ...marketRules(m),
    resolveAt: resolveAtIso(state, m),
    pricing,
    imageUrl:
      unitHash(seed, 'market-image', m.marketId) < NO_IMAGE_SHARE
        ? null
        : `https://images.sim.invalid/markets/${encodeURIComponent(m.marketId)}.png`,
    team: null,
    outcomes: ['Yes', 'No'],
    clobTokenIds: clobTokenIds(seed, m.marketId),
    // As recorded in July and typed by the 2026-07-02 OpenAPI: one option a side, flagged.
    marketOptions: [
      { label: 'Yes', buyYes: true },
      { label: 'No', buyYes: false },
    ],
    sportsMarketType: teams ? 'moneyline' : null,
    sportsLine: null,
    gameNumber: null,
  });
}
