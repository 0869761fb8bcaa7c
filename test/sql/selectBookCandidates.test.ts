import { describe, expect, it } from 'vitest';

import { ENDPOINTS } from '../../src/api/endpoints/requests.js';
import { parseEvent, parseTradeList } from '../../src/api/parse.js';
import { selectBookCandidates, TRADE_RATE_WINDOW_SEC } from '../../src/sql/targets/selectBookCandidates.js';
import { writeEvents } from '../../src/store/writeEvents.js';
import { writeOrderBooks } from '../../src/store/writeOrderBooks.js';
import { writeTrades } from '../../src/store/writeTrades.js';
import { wireEvent, wireMarket, wireTrade } from '../api/client/helpers/wire.js';
import { book, ok } from '../helpers/domainFixtures.js';
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

  it("tells when the crawl saw listed prices move since the last book fetch, and the signalled fetches' lag", async () => {
    const t = (sec: number) => new Date(Date.UTC(2026, 10, 30, 12, 0, sec));
    const crawl = (buyYesPriceUsd: number, at: Date) =>
      writeEvents(db.sql, {
        runId: null,
        endpoint: '/events',
        events: [
          parseEvent(
            wireEvent('E-L', {
              markets: [
                wireMarket('L-1', { pricing: { ...(wireMarket('L-1').pricing as object), buyYesPriceUsd } }),
                wireMarket('L-2'),
                wireMarket('L-3', { pricing: { ...(wireMarket('L-3').pricing as object), buyYesPriceUsd } }),
              ],
            }),
            { provider: 'polymarket' },
          ),
        ],
        observedAt: at,
      });
    const fetchBooks = (ids: string[], at: Date, signalled = new Map<string, number>()) =>
      writeOrderBooks(db.sql, {
        runId: null,
        endpoint: ENDPOINTS.getOrderBook,
        fetches: [{ books: ids.map((id) => ok(book(id, [['60', '10']], []))), observedAt: at, signalled }],
      });
    await crawl(650_000, t(0));
    await fetchBooks(['L-1', 'L-2'], t(10));
    // L-1's and L-3's listed prices move; L-3's book was never fetched (it goes first anyway).
    await crawl(660_000, t(20));
    const moved = async (at: Date) =>
      Object.fromEntries(
        (await selectBookCandidates(db.sql, ['polymarket'], at, ['L-1', 'L-2', 'L-3'])).map((r) => [
          r.marketId,
          [r.listedMovedAtMs, r.signalledLagSec],
        ]),
      );
    expect(await moved(t(25))).toEqual({ 'L-1': [t(20).getTime(), 0], 'L-2': [null, 0], 'L-3': [null, 0] });
    // Its fetch brought forward by the move, 7 s after it: the move is stored, the lag counted.
    await fetchBooks(['L-1'], t(27), new Map([['L-1', t(20).getTime()]]));
    expect(await moved(t(30))).toEqual({ 'L-1': [null, 7], 'L-2': [null, 0], 'L-3': [null, 0] });
  });
});
