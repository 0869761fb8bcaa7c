/**
 * Wire payloads as fresh plain objects (tests mutate copies freely). `spec*` are shaped exactly as
 * the dated spec describes them; `live*` as the live service sends them today
 * (docs/upstream/live-service.md). Values are those of the upstream examples (POLY-… ids,
 * micro-USD prices).
 */

import { DRIFT, missingTag } from '../../src/normalize/driftTags.js';

export function specMarket(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    marketId: 'POLY-558936',
    status: 'open',
    result: null,
    openTime: 1_700_000_000,
    closeTime: 1_800_000_000,
    settlementTime: 0,
    metadata: {
      marketId: 'POLY-558936',
      isTradable: true,
      title: 'Will it rain?',
      subtitle: 'Tomorrow',
      description: 'Resolves YES if it rains.',
      status: 'open',
      result: '',
      closeTime: 1_800_000_000,
      openTime: 1_700_000_000,
      settlementTime: 0,
      rulesPrimary: 'Primary rules',
      rulesSecondary: 'Secondary rules',
    },
    pricing: {
      buyYesPriceUsd: 650000,
      buyNoPriceUsd: 360000,
      sellYesPriceUsd: 640000,
      sellNoPriceUsd: 350000,
      volume: 1234567,
    },
    ...overrides,
  };
}

export function specEvent(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    eventId: 'POLY-30615',
    series: 'weather-daily',
    winner: '',
    multipleWinners: false,
    isActive: true,
    isLive: false,
    isTrending: true,
    isRecommended: false,
    category: 'culture',
    subcategory: 'weather',
    tvlDollars: '1,234.56',
    volumeUsd: '98765.4321',
    closeCondition: 'Closes at midnight UTC',
    beginAt: '1700000000',
    rulesPdf: 'https://example.test/rules.pdf',
    metadata: {
      eventId: 'POLY-30615',
      title: 'Rain in Paris',
      subtitle: 'Daily weather',
      imageUrl: 'https://example.test/rain.png',
      isLive: false,
    },
    markets: [specMarket(), specMarket({ marketId: 'POLY-558937', status: 'closed', result: 'no', settlementTime: 1_750_000_000 })],
    ...overrides,
  };
}

export function specOrderBook(): Record<string, unknown> {
  return {
    yes: [
      [65, 100],
      [64, 250.5],
      [60, 10],
    ],
    no: [
      [35, 80],
      [30, 1],
    ],
  };
}

/**
 * A market as embedded in an event today: flat (no `metadata`), no `settlementTime`, `resolveAt`
 * null while open, undocumented extras beside the spec's fields.
 */
export function liveMarket(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    provider: 'polymarket',
    marketId: 'POLY-2470848',
    status: 'open',
    result: null,
    marketResultPubkey: null,
    title: 'SOL $500 by Q2 2026',
    openTime: 1_784_304_000,
    closeTime: 1_784_692_980,
    isTeamMarket: false,
    rulesPrimary: 'Resolves YES if SOL reaches $500.',
    rulesSecondary: '',
    resolveAt: null,
    pricing: { buyYesPriceUsd: 650000, buyNoPriceUsd: 380000, sellYesPriceUsd: 620000, sellNoPriceUsd: 350000, volume: 26003599 },
    imageUrl: null,
    team: null,
    outcomes: ['Yes', 'No'],
    clobTokenIds: ['1111', '2222'],
    marketOptions: [
      { label: 'Yes', buyYes: true },
      { label: 'No', buyYes: false },
    ],
    sportsMarketType: null,
    sportsLine: null,
    gameNumber: null,
    ...overrides,
  };
}

/**
 * An event as the live service sends it today: no top-level `series`, `winner`, `multipleWinners`,
 * `isTrending`, `isRecommended` or `tvlDollars`; `series` in `metadata`; micro-USD volumes as strings;
 * `beginAt` a string of possibly fractional seconds.
 */
export function liveEvent(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    eventId: 'POLY-572993',
    isActive: true,
    isLive: false,
    category: 'crypto',
    subcategory: '',
    tags: ['crypto', 'solana'],
    metadata: {
      slug: 'sol-500',
      title: 'SOL $500',
      isLive: false,
      series: 'sol-price',
      eventId: 'POLY-572993',
      imageUrl: 'https://example.test/sol.png',
      subtitle: 'By Q2',
      closeTime: '2026-07-24T05:14:12.365Z',
    },
    volumeUsd: '26003599000000',
    volume24hr: '1000000',
    beginAt: '1784692980.306',
    closeCondition: 'Closes when resolved',
    rulesPdf: '',
    markets: [liveMarket()],
    sportsMarketGroups: [],
    ...overrides,
  };
}

/** The drift `liveEvent()` is read with: the spec's fields it lacks, and what it sends otherwise. */
export const LIVE_EVENT_DRIFT = [
  DRIFT.seriesFromMetadata,
  DRIFT.missingWinner,
  DRIFT.missingTvl,
  DRIFT.beginAtFractional,
  missingTag('multipleWinners'),
  missingTag('isTrending'),
  missingTag('isRecommended'),
];

/** An order book today: ascending, unmerged cent levels, with the exact prices in `*_dollars`. */
export function liveOrderBook(): Record<string, unknown> {
  return {
    yes: [
      [99, 10],
      [100, 5],
      [100, 659518.58],
    ],
    no: [],
    yes_dollars: [
      ['0.9940', 10],
      ['0.9950', 5],
      ['0.9990', 659518.58],
    ],
    no_dollars: [],
  };
}

export function specPagination(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { start: 0, end: 20, total: 57, hasNext: true, ...overrides };
}

/** Drops keys from a copy: how "missing field" cases are built. */
export function without(record: Record<string, unknown>, ...keys: string[]): Record<string, unknown> {
  const copy = { ...record };
  for (const key of keys) delete copy[key];
  return copy;
}
