import { beforeEach, describe, expect, it } from 'vitest';

import { writeEvents } from '../../src/store/writeEvents.js';
import { writeMarkets } from '../../src/store/writeMarkets.js';
import { writeOrderBooks } from '../../src/store/writeOrderBooks.js';
import { book, event, market, ok } from '../helpers/domainFixtures.js';
import { useTestDatabase } from '../helpers/testDatabase.js';

/**
 * An observation that arrives after a later one was written (a slow answer among faster ones, two
 * jobs sharing the queue) must not overwrite it: each history keeps what was seen last.
 */
const db = await useTestDatabase();
const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 0, minute));
const P1 = { buyYesMicroUsd: '650000', buyNoMicroUsd: '360000', sellYesMicroUsd: '640000', sellNoMicroUsd: '350000', volume: '1234' };
const P2 = { ...P1, buyYesMicroUsd: '700000' };
const observeMarket = (overrides: Parameters<typeof market>[1], observedAt: Date) =>
  writeMarkets(db.sql, {
    runId: null,
    endpoint: '/markets/{marketId}',
    isDetail: true,
    markets: [{ checked: ok(market('M1', overrides)), eventId: 'E1', provider: 'polymarket' }],
    observedAt,
  });

describe('a late observation', () => {
  beforeEach(async () => {
    await db.sql`truncate prediction.events, prediction.markets, prediction.event_state_history, prediction.market_state_history,
                          prediction.pricing_snapshots, prediction.orderbook_snapshots, prediction.rejected_records cascade`;
    await writeEvents(db.sql, { runId: null, endpoint: '/events', events: [ok(event('E1'))], observedAt: at(0) });
  });

  it("changes neither a market's prices nor its state once a later observation confirmed them", async () => {
    await observeMarket({ pricing: P1, status: 'open' }, at(2));
    await observeMarket({ pricing: P1, status: 'open' }, at(4));
    // Observed at minute 3, written after minute 4's.
    await observeMarket({ pricing: P2, status: 'closed' }, at(3));
    expect(await db.sql`select observed_at, last_observed_at, buy_yes_micro_usd::text as buy from prediction.pricing_snapshots`).toEqual([
      { observed_at: at(2), last_observed_at: at(4), buy: '650000' },
    ]);
    expect(await db.sql`select status, valid_from, valid_to from prediction.market_state_history`).toEqual([
      { status: 'open', valid_from: at(2), valid_to: null },
    ]);
    expect(await db.sql`select status, last_seen_at from prediction.markets`).toEqual([{ status: 'open', last_seen_at: at(4) }]);
  });

  it("adds no order-book snapshot once a later observation confirmed the market's book", async () => {
    const write = (levels: [string, string][], observedAt: Date) =>
      writeOrderBooks(db.sql, {
        runId: null,
        endpoint: '/orderbook/{marketId}',
        fetches: [{ books: [ok(book('M1', levels, []))], observedAt }],
      });
    await write([['50', '10']], at(2));
    await write([['50', '10']], at(4));
    await write([['51', '10']], at(3));
    expect(await db.sql`select observed_at, last_observed_at, yes_levels from prediction.orderbook_snapshots`).toEqual([
      { observed_at: at(2), last_observed_at: at(4), yes_levels: 1 },
    ]);
  });

  it('records a change observed after everything seen so far', async () => {
    await observeMarket({ pricing: P1, status: 'open' }, at(2));
    // Newer than everything seen: recorded.
    await observeMarket({ pricing: P2, status: 'closed' }, at(5));
    expect(
      (await db.sql`select buy_yes_micro_usd::text as buy from prediction.pricing_snapshots order by observed_at`).map((r) => r.buy),
    ).toEqual(['650000', '700000']);
    expect((await db.sql`select status from prediction.market_state_history order by valid_from`).map((r) => r.status)).toEqual([
      'open',
      'closed',
    ]);
  });
});
