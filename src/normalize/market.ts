import type { MarketWire } from '../wire/market.js';
import type { DriftTag, Market, MarketResult, Pricing } from '../domain/types.js';
import { DRIFT } from './driftTags.js';
import { isAbsent } from './isAbsent.js';
import { nestedOrTopLevel } from './nestedOrTopLevel.js';
import { normalizePricing } from './pricing.js';

export interface MarketContext {
  /** The embedding event or the request: the wire market carries no event id. */
  eventId: string | null;
  /** The market payload as received. */
  raw: unknown;
}

export function normalizeMarket(wire: MarketWire, ctx: MarketContext): Market {
  const drift: DriftTag[] = [];
  const result = normalizeResult(wire.result, drift);
  const settlementTimeSec = normalizeSettlement(wire, drift);
  const meta = wire.metadata ?? undefined;
  const fields = nestedOrTopLevel();
  const title = fields.pick(meta?.title, wire.title);
  const subtitle = fields.pick(meta?.subtitle, wire.subtitle);
  const description = fields.pick(meta?.description, wire.description);
  const rulesPrimary = fields.pick(meta?.rulesPrimary, wire.rulesPrimary);
  const rulesSecondary = fields.pick(meta?.rulesSecondary, wire.rulesSecondary);
  const isTradable = fields.pick(meta?.isTradable, wire.isTradable);
  if (fields.usedTopLevel) drift.push(DRIFT.flattenedMarket);

  let pricing: Pricing | null = null;
  if (!isAbsent(wire.pricing)) {
    const normalized = normalizePricing(wire.pricing);
    pricing = normalized.pricing;
    if (normalized.sentAsString) drift.push(DRIFT.pricingAsString);
  }

  return {
    marketId: wire.marketId,
    eventId: ctx.eventId,
    status: wire.status,
    result,
    openTimeSec: wire.openTime,
    closeTimeSec: wire.closeTime,
    settlementTimeSec,
    title,
    subtitle,
    description,
    rulesPrimary,
    rulesSecondary,
    isTradable,
    pricing,
    drift,
    raw: ctx.raw,
  };
}

function normalizeResult(result: MarketWire['result'], drift: DriftTag[]): MarketResult {
  if (result === '') drift.push(DRIFT.resultEmpty);
  if (result === 'pending') drift.push(DRIFT.resultPending);
  return result === 'yes' || result === 'no' ? result : null;
}

/** The spec's `settlementTime` wins over its successor `resolveAt` when both are sent; 0 means pending. */
function normalizeSettlement(wire: MarketWire, drift: DriftTag[]): number | null {
  if (wire.resolveAt !== undefined) drift.push(DRIFT.resolveAt);
  const seconds = wire.settlementTime !== undefined ? wire.settlementTime : wire.resolveAt;
  return isAbsent(seconds) || seconds === 0 ? null : seconds;
}
