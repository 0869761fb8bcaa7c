import { beforeAll, describe, expect, it } from 'vitest';

import { writeOrderBooks } from '../../src/store/writeOrderBooks.js';
import { book, ok } from '../helpers/domainFixtures.js';
import { useTestDatabase } from '../helpers/testDatabase.js';
import { iso, num, time, writeKnownDataset } from './knownDataset.js';

const db = await useTestDatabase();
beforeAll(() => writeKnownDataset(db.sql));

describe('analytics.orderbook_top', () => {
  it('gives each snapshot its best YES bid and ask (100 - best NO bid), spread, mid and depth within 1/5/10 cents', async () => {
    const rows = await db.sql`select * from analytics.orderbook_top where market_id = 'M1' order by valid_from`;
    expect(
      rows.map((r) => ({
        valid: [time(r.valid_from), time(r.valid_to), time(r.last_observed_at)],
        top: [
          r.is_null,
          num(r.best_yes_bid_cents),
          num(r.best_no_bid_cents),
          num(r.best_yes_ask_cents),
          num(r.spread_cents),
          num(r.mid_cents),
          num(r.implied_yes_probability),
        ],
        bids: [
          num(r.yes_bid_depth_1c_contracts),
          num(r.yes_bid_depth_5c_contracts),
          num(r.yes_bid_depth_10c_contracts),
          num(r.yes_bid_total_contracts),
        ],
        asks: [
          num(r.yes_ask_depth_1c_contracts),
          num(r.yes_ask_depth_5c_contracts),
          num(r.yes_ask_depth_10c_contracts),
          num(r.yes_ask_total_contracts),
        ],
      })),
    ).toEqual([
      // YES bids 64x100, 63x50, 55x10; NO bids 35x10, 34x20, 20x5 = YES asks 65x10, 66x20, 80x5.
      { valid: [iso(0), iso(10), iso(5)], top: [false, 64, 35, 65, 1, 64.5, 0.645], bids: [150, 150, 160, 160], asks: [30, 30, 30, 35] },
      { valid: [iso(10), iso(20), iso(10)], top: [false, 66, 32, 68, 2, 67, 0.67], bids: [40, 40, 40, 40], asks: [15, 15, 15, 15] },
      // The endpoint answered null: no prices, no depth.
      { valid: [iso(20), null, iso(20)], top: [true, null, null, null, null, null, null], bids: [0, 0, 0, 0], asks: [0, 0, 0, 0] },
    ]);
  });
});

describe('analytics.orderbook_depth', () => {
  it('lays out the ladder from the YES side, best first, with running contracts and USD', async () => {
    const rows = await db.sql`
      select d.* from analytics.orderbook_depth d
      join analytics.orderbook_top t using (market_id, snapshot_id)
      where d.market_id = 'M1' and t.valid_from = ${iso(0)}::timestamptz
      order by d.yes_side, d.level_rank`;
    expect(
      rows.map((r) => [
        r.yes_side,
        Number(r.level_rank),
        num(r.yes_price_cents),
        num(r.distance_from_best_cents),
        num(r.size_contracts),
        num(r.cumulative_contracts),
        num(r.cumulative_usd),
        num(r.average_price_cents),
        r.book_side,
        num(r.book_price_cents),
      ]),
    ).toEqual([
      ['ask', 1, 65, 0, 10, 10, 6.5, 65, 'no', 35],
      ['ask', 2, 66, 1, 20, 30, 19.7, 65.666667, 'no', 34],
      ['ask', 3, 80, 15, 5, 35, 23.7, 67.714286, 'no', 20],
      ['bid', 1, 64, 0, 100, 100, 64, 64, 'yes', 64],
      ['bid', 2, 63, 1, 50, 150, 95.5, 63.666667, 'yes', 63],
      ['bid', 3, 55, 9, 10, 160, 101, 63.125, 'yes', 55],
    ]);
  });
});

describe('analytics.cost_to_buy_yes', () => {
  const cost = async (contracts: string, at: string, minusMicros = 0) => {
    const [row] = await db.sql`
      select * from analytics.cost_to_buy_yes('M1', ${contracts}::numeric, ${at}::timestamptz - make_interval(secs => ${minusMicros}::float8 / 1e6))`;
    return (
      row && [
        time(row.book_observed_at),
        num(row.contracts_filled),
        num(row.cost_usd),
        num(row.average_price_cents),
        num(row.best_ask_cents),
        num(row.worst_price_cents),
        num(row.slippage_cents),
        row.fully_filled,
      ]
    );
  };

  it('walks the NO bids of the book in force: 25 contracts = 10 at 65c + 15 at 66c', async () => {
    expect(await cost('25', iso(5))).toEqual([iso(0), 25, 16.4, 65.6, 65, 66, 0.6, true]);
    expect(await cost('10', iso(0))).toEqual([iso(0), 10, 6.5, 65, 65, 65, 0, true]);
    expect(await cost('2.5', iso(0))).toEqual([iso(0), 2.5, 1.625, 65, 65, 65, 0, true]);
  });

  it('fills only what the book holds, and reports it', async () => {
    expect(await cost('100', iso(5))).toEqual([iso(0), 35, 23.7, 67.714286, 65, 80, 2.714286, false]);
  });

  it('uses the book in force at the instant, exactly at its change', async () => {
    expect(await cost('10', iso(10), 1)).toEqual([iso(0), 10, 6.5, 65, 65, 65, 0, true]);
    expect(await cost('10', iso(10))).toEqual([iso(10), 10, 6.8, 68, 68, 68, 0, true]);
    expect(await cost('10', iso(20))).toEqual([iso(20), 0, 0, null, null, null, null, false]);
    expect(await cost('10', iso(0), 1)).toBeUndefined();
  });
});

describe('analytics.orderbook_top at the edges of its depth bands', () => {
  it('counts a level exactly 1, 5 or 10 cents from the best within that band, and one a cent further outside it', async () => {
    const edge = await useTestDatabase();
    // YES bids 64, 63 (1c), 59 (5c), 54 (10c), 53 (11c); NO bids 35, 34, 30, 25, 24 alike.
    const levels = (best: number): [string, string][] => [0, 1, 5, 10, 11].map((d, i) => [String(best - d), String(10 ** i)]);
    await writeOrderBooks(edge.sql, {
      runId: null,
      endpoint: '/orderbook/{marketId}',
      fetches: [{ books: [ok(book('EDGE', levels(64), levels(35)))], observedAt: new Date('2026-01-01T00:00:00Z') }],
    });
    const [top] = await edge.sql`select * from analytics.orderbook_top where market_id = 'EDGE'`;
    const bands = (side: 'bid' | 'ask') => [1, 5, 10].map((c) => num(top![`yes_${side}_depth_${c}c_contracts`]));
    expect(bands('bid')).toEqual([11, 111, 1111]);
    expect(bands('ask')).toEqual([11, 111, 1111]);
    expect(num(top!.yes_bid_total_contracts)).toBe(11111);
  });
});
