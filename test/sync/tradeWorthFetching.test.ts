import { describe, expect, it } from 'vitest';

import { LEAST_HOLD_PROBABILITY, tradeWorthFetching } from '../../src/sync/tradeWorthFetching.js';

const NOW_MS = 1_800_000_000_000;
const traded = (agoMs: number) => NOW_MS - agoMs;

describe('tradeWorthFetching', () => {
  it('fetches a traded book while the state the trade left holds with at least the least probability', () => {
    const fetchedMs = NOW_MS - 600_000;
    // e^(−λ·age) at λ = 0.01/s: 0.95 after 5 s, 0.30 after 120 s.
    expect(tradeWorthFetching(traded(5_000), fetchedMs, 0.01, NOW_MS)).toBe(true);
    const limitMs = (-Math.log(LEAST_HOLD_PROBABILITY) / 0.01) * 1000;
    expect(tradeWorthFetching(traded(limitMs - 1), fetchedMs, 0.01, NOW_MS)).toBe(true);
    expect(tradeWorthFetching(traded(limitMs + 1), fetchedMs, 0.01, NOW_MS)).toBe(false);
    // A book changing every 2 s has moved on 5 s after a trade (e^(−2.5) = 0.08).
    expect(tradeWorthFetching(traded(5_000), fetchedMs, 0.5, NOW_MS)).toBe(false);
    // A trade dated after now (clocks disagree) is taken as just made.
    expect(tradeWorthFetching(traded(-3_000), fetchedMs, 0.5, NOW_MS)).toBe(true);
  });

  it('takes a trade dated in the second a fetch went out as possibly after it, and one dated before as in its book', () => {
    const trade = traded(5_000);
    // Dated t, it happened in [t, t + 1 s).
    expect(tradeWorthFetching(trade, trade + 999, 0.01, NOW_MS)).toBe(true);
    expect(tradeWorthFetching(trade, trade + 1_000, 0.01, NOW_MS)).toBe(false);
    expect(tradeWorthFetching(trade, trade + 3_000, 0.01, NOW_MS)).toBe(false);
    // Never fetched: the plan takes it first anyway.
    expect(tradeWorthFetching(trade, null, 0.01, NOW_MS)).toBe(false);
  });
});
