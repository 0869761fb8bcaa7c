/** Wire records shaped as the spec describes (section 2), for test servers to answer with. */

export function wireMarket(marketId: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    marketId,
    status: 'open',
    result: null,
    openTime: 1_700_000_000,
    closeTime: 1_800_000_000,
    settlementTime: 0,
    metadata: {
      marketId,
      isTradable: true,
      title: `Market ${marketId}`,
      subtitle: '',
      description: 'A test market',
      status: 'open',
      result: '',
      closeTime: 1_800_000_000,
      openTime: 1_700_000_000,
      settlementTime: 0,
      rulesPrimary: 'Resolves yes if it happens.',
      rulesSecondary: '',
    },
    pricing: { buyYesPriceUsd: 650000, buyNoPriceUsd: 360000, sellYesPriceUsd: 640000, sellNoPriceUsd: 350000, volume: 1234 },
    ...overrides,
  };
}

export function wireEvent(eventId: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    eventId,
    series: 'SERIES-1',
    winner: '',
    multipleWinners: false,
    isActive: true,
    isLive: false,
    isTrending: false,
    isRecommended: false,
    category: 'crypto',
    subcategory: 'bitcoin',
    tvlDollars: '1000.50',
    volumeUsd: '25000',
    closeCondition: 'Closes at the end of the year',
    beginAt: '1700000000',
    rulesPdf: 'https://example.test/rules.pdf',
    metadata: { eventId, title: `Event ${eventId}`, subtitle: '', imageUrl: 'https://example.test/i.png', isLive: false },
    ...overrides,
  };
}

export function wireOrderBook(): Record<string, unknown> {
  return {
    yes: [
      [65, 100],
      [64, 250.5],
    ],
    no: [[35, 80]],
  };
}

/** The id a detail request asked for: the last segment of its path. */
export function requestedId(path: string): string {
  return decodeURIComponent(path.split('/').pop()!);
}
