import type { Event, Market, OrderBook, Pricing, RecordShape } from '../../src/domain/types.js';
import type { FetchEvidence } from '../../src/sync/changeRate.js';
import { recordShape } from '../../src/wire/recordShape.js';

/** The shape fixtures carry: writers record shapes, and these tests are not about them. */
export const FIXTURE_SHAPE: RecordShape = recordShape({ fixture: true }, 'event');

/** A market's change-rate evidence before any fetch after its first, and with no fill seen. */
export const NO_EVIDENCE: Readonly<FetchEvidence> = {
  changedFetches: 0,
  unchangedFetches: 0,
  changedIntervalSec: 0,
  changedIntervalSqSec: 0,
  unchangedIntervalSec: 0,
  signalledFetches: 0,
  signalledChangedFetches: 0,
  signalledIntervalSec: 0,
  signalledLagSec: 0,
  tradesPerSec: 0,
};

/** The pricing of a market that quotes no price on either side, its volume as received. */
export const noQuote = (volume: string): Pricing => ({
  buyYesMicroUsd: null,
  buyNoMicroUsd: null,
  sellYesMicroUsd: null,
  sellNoMicroUsd: null,
  volume,
});

/** A market's descriptive fields (its `metadata` in the spec), all absent: how a lean record of it reads. */
export const NO_MARKET_METADATA = {
  title: null,
  subtitle: null,
  description: null,
  rulesPrimary: null,
  rulesSecondary: null,
  isTradable: null,
} satisfies Partial<Market>;

/** A valid normalized market; override what the test is about. */
export function market(marketId: string, overrides: Partial<Market> = {}): Market {
  return {
    marketId,
    eventId: null,
    status: 'open',
    result: null,
    openTimeSec: 1_767_225_600,
    closeTimeSec: 1_767_312_000,
    settlementTimeSec: null,
    title: `Market ${marketId}`,
    subtitle: null,
    description: 'desc',
    rulesPrimary: 'rules',
    rulesSecondary: null,
    isTradable: true,
    pricing: { buyYesMicroUsd: '650000', buyNoMicroUsd: '360000', sellYesMicroUsd: '640000', sellNoMicroUsd: '350000', volume: '1234' },
    pricingRejection: null,
    drift: [],
    raw: { marketId, status: 'open' },
    shape: FIXTURE_SHAPE,
    ...overrides,
  };
}

/** A valid normalized event with the given markets. */
export function event(eventId: string, markets: Market[] = [], overrides: Partial<Event> = {}): Event {
  return {
    eventId,
    provider: 'polymarket',
    series: 'S1',
    category: 'crypto',
    subcategory: 'btc',
    title: `Event ${eventId}`,
    subtitle: null,
    imageUrl: null,
    closeCondition: 'cc',
    rulesPdf: 'rules.pdf',
    multipleWinners: false,
    isActive: true,
    isLive: false,
    isTrending: false,
    isRecommended: false,
    winner: null,
    beginAtSec: 1_767_225_600,
    tvlUsd: '1000.50',
    volumeUsd: '123456.789',
    markets: markets.map((m) => ({ ...m, eventId })),
    rejectedMarkets: [],
    drift: [],
    raw: { eventId },
    shape: FIXTURE_SHAPE,
    ...overrides,
  };
}

export function book(marketId: string, yes: [string, string][], no: [string, string][], isNull = false): OrderBook {
  const levels = (l: [string, string][]) => l.map(([priceCents, size]) => ({ priceCents, size }));
  return { marketId, isNull, yes: levels(yes), no: levels(no), drift: [], shape: FIXTURE_SHAPE };
}

export const ok = <T>(value: T) => ({ ok: true as const, value });
export const bad = (entityId: string | null, reason: string, payload: unknown) => ({
  ok: false as const,
  rejection: { entityId, reason, payload, shape: FIXTURE_SHAPE },
});
