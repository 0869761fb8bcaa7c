/**
 * Renders simulator records as the spec's wire JSON (src/wire/specShapes.ts), fresh on each call
 * (callers may mutate the result, e.g. to inject faults). Derived flags (isLive, isTrending)
 * depend on the world's now.
 */
import type { SpecEvent, SpecMarket } from '../../wire/specShapes.js';
import { dateText } from './catalog.js';
import { formattedUsd, MICRO_PER_USD, usdString } from './money.js';
import { servedSec } from './servedTime.js';
import type { SimEvent, SimEventCategory, SimMarket } from './simTypes.js';
import type { WorldState } from './worldState.js';

/** `filter=trending` and `isTrending`: a trade within this long. */
export const TRENDING_WINDOW_SEC = 3600;
/** `filter=new`: created within this long. */
export const NEW_WINDOW_SEC = 86_400;

/** Begun and not yet resolved or delisted. */
export function isLive(event: SimEvent, nowSec: number): boolean {
  return event.isActive && event.beginAtSec !== null && event.beginAtSec <= nowSec;
}

export function isTrending(event: SimEvent, nowSec: number): boolean {
  return event.isActive && nowSec - event.lastTradeSec < TRENDING_WINDOW_SEC;
}

export function isNew(event: SimEvent, nowSec: number): boolean {
  return nowSec - event.createdAtSec < NEW_WINDOW_SEC;
}

function metadataStatus(m: SimMarket): string {
  if (m.result !== null) return 'finalized';
  return m.status === 'open' ? 'active' : 'closed';
}

/** Market rule texts, shared by every shape that carries them. */
export function marketRules(m: SimMarket): { rulesPrimary: string; rulesSecondary: string } {
  return {
    rulesPrimary: `If ${m.title} is confirmed by the resolution source before ${dateText(m.closeTimeSec)}, the market resolves to Yes.`,
    rulesSecondary: 'If the outcome is ambiguous or the source is unavailable, the market resolves per the full rules.',
  };
}

export function marketDescription(m: SimMarket): string {
  return `Resolves YES if "${m.title}" is the outcome by ${dateText(m.closeTimeSec)}; otherwise NO.`;
}

/** The four prices of a quote, micro-USD: YES bought at the ask and sold at the bid, NO the other way round. */
export function quotePrices(bidMicroUsd: number, askMicroUsd: number) {
  return {
    buyYesPriceUsd: askMicroUsd,
    buyNoPriceUsd: MICRO_PER_USD - bidMicroUsd,
    sellYesPriceUsd: bidMicroUsd,
    sellNoPriceUsd: MICRO_PER_USD - askMicroUsd,
  };
}

/** What a market leads with in the spec's shape and the 2026-03 one: its id, its state and its trading times as served. */
export function marketHead(state: WorldState, m: SimMarket) {
  return {
    marketId: m.marketId,
    status: m.status,
    result: m.result,
    openTime: servedSec(state, m.openTimeSec),
    closeTime: servedSec(state, m.closeTimeSec),
  };
}

export function renderMarket(state: WorldState, m: SimMarket): SpecMarket {
  const volume = m.volumeCenti / 100;
  const rules = marketRules(m);
  return {
    ...marketHead(state, m),
    settlementTime: m.result === null ? m.settlementTimeSec : servedSec(state, m.settlementTimeSec),
    metadata: {
      marketId: m.marketId,
      isTradable: m.status === 'open' && m.hasBook,
      title: m.title,
      subtitle: m.subtitle,
      description: marketDescription(m),
      status: metadataStatus(m),
      result: m.result ?? '',
      closeTime: servedSec(state, m.closeTimeSec),
      openTime: servedSec(state, m.openTimeSec),
      settlementTime: m.result === null ? m.settlementTimeSec : servedSec(state, m.settlementTimeSec),
      rulesPrimary: rules.rulesPrimary,
      rulesSecondary: rules.rulesSecondary,
    },
    pricing: { ...quotePrices(m.bidMicroUsd, m.askMicroUsd), volume },
  };
}

/**
 * A spec-era event as the simulator sends it: the spec's shape, but for its category, which in the
 * 'mixed' profile may be one of today's undocumented ones (the world there follows the live service).
 */
export type SpecEraEvent = Omit<SpecEvent, 'category'> & { category: SimEventCategory };

export interface RenderEventOptions {
  includeMarkets: boolean;
  /** True in the suggested-events response ("recommended in the current response context"). */
  isRecommended?: boolean;
}

export function renderEvent(state: WorldState, e: SimEvent, opts: RenderEventOptions): SpecEraEvent {
  const now = state.nowSec;
  const wire: SpecEraEvent = {
    eventId: e.eventId,
    series: e.series,
    winner: e.winner,
    multipleWinners: e.multipleWinners,
    isActive: e.isActive,
    isLive: isLive(e, now),
    isTrending: isTrending(e, now),
    isRecommended: opts.isRecommended ?? false,
    category: e.category,
    subcategory: e.subcategory,
    tvlDollars: formattedUsd(e.tvlMicroUsd),
    volumeUsd: usdString(e.volumeMicroUsd),
    closeCondition: e.closeCondition,
    beginAt: e.beginAtSec === null ? null : String(servedSec(state, e.beginAtSec)),
    rulesPdf: `https://rules.sim.invalid/${e.provider}/${encodeURIComponent(e.series)}.pdf`,
    metadata: {
      eventId: e.eventId,
      title: e.title,
      subtitle: e.subtitle,
      imageUrl: `https://images.sim.invalid/events/${encodeURIComponent(e.eventId)}.png`,
      isLive: isLive(e, now),
    },
  };
  if (opts.includeMarkets) wire.markets = e.marketIds.map((id) => renderMarket(state, state.marketsById.get(id)!));
  return wire;
}
