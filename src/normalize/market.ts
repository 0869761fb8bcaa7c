import type { DriftTag, Market, MarketResult, RecordShape } from '../domain/types.js';
import type { MarketWire } from '../wire/market.js';
import { DRIFT } from './driftTags.js';
import { fieldReader } from './fieldReader.js';
import { nestedOrTopLevel } from './nestedOrTopLevel.js';
import { normalizePricing } from './pricing.js';

export interface MarketContext {
  /** The embedding event or the request; null when neither says (the record's own `eventId` then counts). */
  eventId: string | null;
  /** The market payload as received. */
  raw: unknown;
  shape: RecordShape;
}

const KNOWN_STATUSES: ReadonlySet<string> = new Set(['open', 'closed']);

export function normalizeMarket(wire: MarketWire, ctx: MarketContext): Market {
  const drift: DriftTag[] = [];
  const read = fieldReader(drift);
  const meta = read.optional('metadata', wire.metadata);

  // The top level decides; the 2026-03 shape's metadata copies stand in only where it is silent.
  const status = read.optional('status', wire.status) ?? read.optional('metadata.status', meta?.status);
  if (status === null) drift.push(DRIFT.missingStatus);
  else if (!KNOWN_STATUSES.has(status)) drift.push(DRIFT.statusUnknown);

  const result = normalizeResult(
    wire.result === undefined ? read.optional('metadata.result', meta?.result) : read.optional('result', wire.result),
    wire.result === undefined && meta?.result === undefined,
    drift,
  );

  const openTimeSec = time(read.optional('openTime', wire.openTime)) ?? time(read.optional('metadata.openTime', meta?.openTime));
  const closeTimeSec = time(read.optional('closeTime', wire.closeTime)) ?? time(read.optional('metadata.closeTime', meta?.closeTime));
  if (openTimeSec === null) drift.push(DRIFT.missingOpenTime);
  if (closeTimeSec === null) drift.push(DRIFT.missingCloseTime);

  const fields = nestedOrTopLevel();
  const title = fields.pick(read.optional('metadata.title', meta?.title), read.optional('title', wire.title));
  const subtitle = fields.pick(read.optional('metadata.subtitle', meta?.subtitle), read.optional('subtitle', wire.subtitle));
  const description = fields.pick(read.optional('metadata.description', meta?.description), read.optional('description', wire.description));
  const rulesPrimary = fields.pick(
    read.optional('metadata.rulesPrimary', meta?.rulesPrimary),
    read.optional('rulesPrimary', wire.rulesPrimary),
  );
  const rulesSecondary = fields.pick(
    read.optional('metadata.rulesSecondary', meta?.rulesSecondary),
    read.optional('rulesSecondary', wire.rulesSecondary),
  );
  let isTradable = fields.pick(read.optional('metadata.isTradable', meta?.isTradable), read.optional('isTradable', wire.isTradable));
  if (fields.usedTopLevel) drift.push(DRIFT.flattenedMarket);
  if (isTradable === null) {
    isTradable = read.optional('tradable', wire.tradable);
    if (isTradable !== null) drift.push(DRIFT.tradableRenamed);
  }

  const priced = normalizePricing(wire, { marketId: wire.marketId, status, drift });

  return {
    marketId: wire.marketId,
    eventId: ctx.eventId ?? read.optional('eventId', wire.eventId),
    status,
    result,
    openTimeSec,
    closeTimeSec,
    settlementTimeSec: normalizeSettlement(wire, drift),
    title,
    subtitle,
    description,
    rulesPrimary,
    rulesSecondary,
    isTradable,
    pricing: priced.pricing,
    pricingRejection: priced.rejection,
    drift,
    raw: ctx.raw,
    shape: ctx.shape,
  };
}

const time = (value: number | string | null | undefined): number | null => (value === null || value === undefined ? null : Number(value));

/** "" and "pending" are early spellings of "unresolved"; values beyond yes/no are kept as received. */
function normalizeResult(result: string | null, absent: boolean, drift: DriftTag[]): MarketResult {
  if (absent) drift.push(DRIFT.missingResult);
  if (result === '') drift.push(DRIFT.resultEmpty);
  else if (result === 'pending') drift.push(DRIFT.resultPending);
  else if (result !== null && result !== 'yes' && result !== 'no') drift.push(DRIFT.resultUnknown);
  return result === '' || result === 'pending' ? null : result;
}

/**
 * `settlementTime` wins over its successor `resolveAt` when both are sent. 0 and null both mean
 * pending. `resolveAt` is an ISO string on the live service, possibly with milliseconds (kept).
 */
function normalizeSettlement(wire: MarketWire, drift: DriftTag[]): number | null {
  if (wire.resolveAt !== undefined) drift.push(DRIFT.resolveAt);
  if (wire.settlementTime === undefined && wire.resolveAt === undefined) drift.push(DRIFT.missingSettlementTime);
  const seconds = time(wire.settlementTime ?? wire.resolveAt);
  return seconds === null || seconds === 0 ? null : seconds;
}
