/** Wire records shaped as the spec describes (section 2), for test servers to answer with. */

import { specMarket } from '../../../wire/fixtures.js';

/** `specMarket()` under the id `marketId`, titled after it ("Market <id>"). */
export function wireMarket(marketId: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const market = specMarket();
  return {
    ...market,
    marketId,
    metadata: { ...(market.metadata as Record<string, unknown>), marketId, title: `Market ${marketId}` },
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

/** A fill of the trade feed: order `n`, a buy of YES in `marketId` of event `eventId` at `timestampSec`. */
export function wireTrade(marketId: string, eventId: string, timestampSec: number, n: number): Record<string, unknown> {
  return {
    id: `order-${n}`,
    marketId,
    eventId,
    timestamp: timestampSec,
    action: 'buy',
    side: 'yes',
    priceUsd: '650000',
    amountUsd: '1000000',
    ownerPubkey: 'owner',
  };
}

/** The id a detail request asked for: the last segment of its path. */
export function requestedId(path: string): string {
  return decodeURIComponent(path.split('/').pop()!);
}
