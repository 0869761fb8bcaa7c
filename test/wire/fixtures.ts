/**
 * Wire payloads shaped exactly as the spec describes them, as fresh plain objects (tests mutate
 * copies freely). Values are those of the upstream examples (POLY-… ids, micro-USD prices).
 */

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

export function specPagination(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { start: 0, end: 20, total: 57, hasNext: true, ...overrides };
}

/** Drops keys from a copy: how "missing field" cases are built. */
export function without(record: Record<string, unknown>, ...keys: string[]): Record<string, unknown> {
  const copy = { ...record };
  for (const key of keys) delete copy[key];
  return copy;
}
