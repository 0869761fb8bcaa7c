import { beforeAll, describe, expect, it } from 'vitest';

import { startRun } from '../../src/sql/core/ingestRuns.js';
import { useTestDatabase } from '../helpers/testDatabase.js';
import { iso, num, t, time, values, writeKnownDataset } from './knownDataset.js';

const db = await useTestDatabase();

/**
 * Crawls of two listings. The sync does not write crawl_coverage yet, so its rows are inserted as
 * the writer will: one per provider × category crawl of a run.
 *   polymarket/crypto: complete at t0, t10, an aborted one at t60, complete at t70
 *   kalshi/sports:     one attempt at t0 that never completed
 */
async function writeCrawls(): Promise<void> {
  const crawls: [number, string, string, number, number | null, boolean][] = [
    [0, 'polymarket', 'crypto', 0, 2, true],
    [0, 'kalshi', 'sports', 2, 3, false],
    [10, 'polymarket', 'crypto', 10, 12, true],
    [60, 'polymarket', 'crypto', 60, null, false],
    [70, 'polymarket', 'crypto', 70, 71, true],
  ];
  const runs = new Map<number, number>();
  for (const [runMin] of crawls) if (!runs.has(runMin)) runs.set(runMin, await startRun(db.sql, 'sync', t(runMin)));
  for (const [runMin, provider, category, start, end, complete] of crawls) {
    await db.sql`
      insert into prediction.crawl_coverage (run_id, provider, category, started_at, finished_at, pages, events_seen, complete)
      values (${runs.get(runMin)!}, ${provider}, ${category}, ${t(start)}, ${end === null ? null : t(end)}, 3, 42, ${complete})`;
  }
}

beforeAll(async () => {
  await writeKnownDataset(db.sql);
  await writeCrawls();
});

describe('analytics.market_resolutions', () => {
  it('dates each state change of a settled market and brackets when its result appeared', async () => {
    const [m1] = await db.sql`select * from analytics.market_resolutions where market_id = 'M1'`;
    expect({
      ...m1,
      close_time: time(m1!.close_time),
      settlement_time: time(m1!.settlement_time),
      first_seen_at: time(m1!.first_seen_at),
      closed_first_observed_at: time(m1!.closed_first_observed_at),
      settlement_time_first_observed_at: time(m1!.settlement_time_first_observed_at),
      settled_last_pending_observed_at: time(m1!.settled_last_pending_observed_at),
      settled_first_observed_at: time(m1!.settled_first_observed_at),
      settlement_lag_seconds: num(m1!.settlement_lag_seconds),
      observed_settlement_lag_min_seconds: num(m1!.observed_settlement_lag_min_seconds),
      observed_settlement_lag_max_seconds: num(m1!.observed_settlement_lag_max_seconds),
    }).toMatchObject({
      provider: 'polymarket',
      category: 'crypto',
      status: 'closed',
      result: 'no',
      is_settled: true,
      close_time: iso(60),
      settlement_time: iso(98),
      first_seen_at: iso(0),
      closed_first_observed_at: iso(90),
      settlement_time_first_observed_at: iso(100),
      // t95 was a poll that only confirmed closed-without-result: known from the prices' last confirmation.
      settled_last_pending_observed_at: iso(95),
      settled_first_observed_at: iso(100),
      settlement_lag_seconds: 38 * 60,
      observed_settlement_lag_min_seconds: 35 * 60,
      observed_settlement_lag_max_seconds: 40 * 60,
    });
  });

  it('leaves the settlement columns empty for a market still pending', async () => {
    const [m2] = await db.sql`select * from analytics.market_resolutions where market_id = 'M2'`;
    expect(m2).toMatchObject({
      is_settled: false,
      result: null,
      closed_first_observed_at: null,
      settled_first_observed_at: null,
      settled_last_pending_observed_at: null,
      settlement_lag_seconds: null,
      observed_settlement_lag_max_seconds: null,
    });
  });
});

describe('analytics.data_coverage and coverage_gaps', () => {
  it('lists each crawl with its run and the time since the previous complete crawl of its listing', async () => {
    const rows = await db.sql`
      select provider, category, job, run_status, started_at, duration_seconds, complete, previous_complete_started_at,
             since_previous_complete_seconds
      from analytics.data_coverage order by started_at, provider`;
    expect(rows.map(values)).toEqual([
      ['polymarket', 'crypto', 'sync', 'running', iso(0), 120, true, null, null],
      ['kalshi', 'sports', 'sync', 'running', iso(2), 60, false, null, null],
      ['polymarket', 'crypto', 'sync', 'running', iso(10), 120, true, iso(0), 600],
      ['polymarket', 'crypto', 'sync', 'running', iso(60), null, false, iso(10), 3000],
      ['polymarket', 'crypto', 'sync', 'running', iso(70), 60, true, iso(10), 3600],
    ]);
  });

  it('reports the gaps longer than the expected period, the open ones included', async () => {
    const gaps = await db.sql`select * from analytics.coverage_gaps('15 minutes', '-infinity', ${iso(80)}::timestamptz)`;
    expect(gaps.map((g) => [g.provider, g.category, time(g.gap_from), time(g.gap_to), num(g.gap_seconds), g.is_open])).toEqual([
      ['kalshi', 'sports', iso(2), null, 78 * 60, true],
      ['polymarket', 'crypto', iso(10), iso(70), 3600, false],
    ]);
    const later =
      await db.sql`select provider, is_open, gap_seconds from analytics.coverage_gaps('15 minutes', ${iso(75)}::timestamptz, ${iso(100)}::timestamptz)`;
    expect(later.map((g) => [g.provider, g.is_open, num(g.gap_seconds)])).toEqual([
      ['kalshi', true, 98 * 60],
      ['polymarket', true, 30 * 60],
    ]);
  });

  it('summarises freshness per provider × category', async () => {
    const rows = await db.sql`
      select provider, category, events, markets, open_markets, markets_last_seen_at, last_complete_crawl_started_at
      from analytics.data_freshness order by provider, category`;
    expect(rows.map(values)).toEqual([
      ['kalshi', 'sports', 0, 0, 0, null, null],
      ['polymarket', 'crypto', 1, 3, 2, iso(100), iso(70)],
    ]);
  });
});
