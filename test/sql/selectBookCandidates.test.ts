import { describe, expect, it } from 'vitest';

import { ENDPOINTS } from '../../src/api/endpoints/requests.js';
import { parseEvent, parseTradeList } from '../../src/api/parse.js';
import { selectBookCandidates, TRADE_RATE_WINDOW_SEC } from '../../src/sql/targets/selectBookCandidates.js';
import { writeEvents } from '../../src/store/writeEvents.js';
import { writeTrades } from '../../src/store/writeTrades.js';
import { wireEvent, wireMarket, wireTrade } from '../api/client/helpers/wire.js';
import { useTestDatabase } from '../helpers/testDatabase.js';

const db = await useTestDatabase();

const trade = (marketId: string, atSec: number, n: number) => wireTrade(marketId, 'E-1', atSec, n);

describe('selectBookCandidates', () => {
  it("gives each market's fills a second over the part of the last hour the feed's polls saw", async () => {
    const nowMs = Date.UTC(2026, 10, 29, 12);
    const sec = nowMs / 1000;
    const markets = ['M-1', 'M-2', 'M-3'].map((id) => wireMarket(id));
    await writeEvents(db.sql, {
      runId: null,
      endpoint: '/events',
      events: [parseEvent(wireEvent('E-1', { markets }), { provider: 'polymarket' })],
      observedAt: new Date(nowMs - 2 * TRADE_RATE_WINDOW_SEC * 1000),
    });
    const poll = (trades: Record<string, unknown>[], polledAtSec: number) =>
      writeTrades(db.sql, {
        runId: null,
        endpoint: ENDPOINTS.listTrades,
        trades: parseTradeList({ data: trades }).trades,
        polledAt: new Date(polledAtSec * 1000),
      });
    // The feed's first poll saw back to its oldest fill, 300 s ago, and the next joined it: the
    // last 300 s of the hour were seen whole, with four fills.
    await poll([trade('M-1', sec - 300, 1)], sec - 200);
    await poll([trade('M-2', sec - 50, 4), trade('M-1', sec - 100, 3), trade('M-1', sec - 150, 2)], sec);
    const rows = await selectBookCandidates(db.sql, ['polymarket'], new Date(nowMs));
    const rate = Object.fromEntries(rows.map((r) => [r.marketId, r.tradesPerSec]));
    expect(rate['M-1']).toBeCloseTo(3 / 300, 9);
    expect(rate['M-2']).toBeCloseTo(1 / 300, 9);
    expect(rate['M-3']).toBe(0);
    // An hour on, the window keeps the polls' last 120 s, and the fills in them.
    const later = await selectBookCandidates(db.sql, ['polymarket'], new Date(nowMs + (TRADE_RATE_WINDOW_SEC - 120) * 1000));
    expect(later.find((r) => r.marketId === 'M-1')!.tradesPerSec).toBeCloseTo(1 / 120, 9);
    // Before any poll of the window, no rate: not a rate of nought over a span nobody saw.
    const earlier = await selectBookCandidates(db.sql, ['polymarket'], new Date(nowMs - 2 * TRADE_RATE_WINDOW_SEC * 1000));
    expect(earlier.every((r) => r.tradesPerSec === 0)).toBe(true);
  });
});
