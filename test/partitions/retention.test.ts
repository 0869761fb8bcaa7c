import postgres from 'postgres';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';

import { createPredictionClient } from '../../src/api/client/index.js';
import { maintainPartitions, MONTHS_AHEAD } from '../../src/partitions/maintainPartitions.js';
import { retentionHorizon } from '../../src/partitions/retentionHorizon.js';
import { selectHistoryHorizons } from '../../src/sql/export/selectHistoryHorizons.js';
import { writeEvents } from '../../src/store/writeEvents.js';
import { writeOrderBooks } from '../../src/store/writeOrderBooks.js';
import { maintainRunPartitions } from '../../src/sync/maintainRunPartitions.js';
import { runJob } from '../../src/sync/runJob.js';
import { book, event, market, ok } from '../helpers/domainFixtures.js';
import { createReaderLogin } from '../helpers/readerLogin.js';
import { useTestDatabase } from '../helpers/testDatabase.js';
import { utc } from '../helpers/utc.js';

const db = await useTestDatabase();

async function monthsOf(table: string): Promise<string[]> {
  const rows = await db.sql<{ name: string }[]>`
    select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
    where i.inhparent = ${`prediction.${table}`}::regclass order by 1`;
  return rows.map((r) => r.name.slice(table.length + 1));
}

/** A market seen in January 2025 whose price, book and status change in February, April and May. */
async function fillHistory(): Promise<void> {
  const pricing = (buyYesMicroUsd: string) => ({
    buyYesMicroUsd,
    buyNoMicroUsd: '500000',
    sellYesMicroUsd: '400000',
    sellNoMicroUsd: '450000',
    volume: '10',
  });
  const observe = async (at: Date, price: string, status: string, yesPrice: string) => {
    const markets = [market('M1', { status, pricing: pricing(price) }), market('QUIET', { pricing: pricing('600000') })];
    await writeEvents(db.sql, { runId: null, endpoint: '/events', events: [ok(event('E1', markets))], observedAt: at });
    await writeOrderBooks(db.sql, {
      runId: null,
      endpoint: '/orderbook/{marketId}',
      fetches: [{ books: [ok(book('M1', [[yesPrice, '5']], [['40', '7']]))], observedAt: at }],
    });
  };
  await observe(utc(1, 10), '500000', 'open', '50');
  await observe(utc(2, 10), '510000', 'open', '51');
  await observe(utc(4, 10), '520000', 'closed', '52');
  await observe(utc(5, 10), '530000', 'closed', '53');
}

describe('time partitions and retention', () => {
  beforeEach(async () => {
    await db.sql`truncate prediction.events, prediction.markets, prediction.event_state_history, prediction.dropped_partitions cascade`;
    await db.sql`truncate prediction.pricing_snapshots, prediction.orderbook_snapshots, prediction.market_state_history`;
  });

  it('writes create the months they need, and maintenance creates the months ahead', async () => {
    await fillHistory();
    expect(await monthsOf('pricing_snapshots')).toEqual(expect.arrayContaining(['2025_01', '2025_02', '2025_04', '2025_05']));
    expect(await monthsOf('pricing_snapshots')).not.toContain('2025_03');
    const first = await maintainPartitions(db.sql, { now: utc(5, 20), retentionMonths: null });
    expect(first).toEqual({ created: 4 * MONTHS_AHEAD, dropped: [], horizon: null, postponed: null });
    for (const table of ['pricing_snapshots', 'orderbook_snapshots', 'market_state_history', 'trades']) {
      expect(await monthsOf(table)).toEqual(expect.arrayContaining(['2025_06', '2025_07']));
    }
    expect((await maintainPartitions(db.sql, { now: utc(5, 20), retentionMonths: null })).created).toBe(0);
  });

  it('drops whole months behind the horizon, records them, and the as-of answers say the data is absent', async () => {
    await fillHistory();
    await db.sql`insert into prediction.ingest_runs (job, status, started_at, finished_at) values ('crawl', 'succeeded', ${utc(1, 10)}, ${utc(1, 10, 1)}), ('crawl', 'succeeded', ${utc(5, 10)}, ${utc(5, 10, 1)})`;
    await db.sql`insert into prediction.crawl_coverage (run_id, provider, category, started_at, finished_at, pages, events_seen, complete)
                 select run_id, 'polymarket', 'all', started_at, finished_at, 1, 1, true from prediction.ingest_runs`;
    const now = utc(6, 15);
    expect(retentionHorizon(now, 3)).toEqual(utc(3, 1));

    const result = await maintainPartitions(db.sql, { now, retentionMonths: 3 });
    expect(result.horizon).toEqual(utc(3, 1));
    expect(result.postponed).toBeNull();
    const dropped = result.dropped.map((d) => `${d.tableName} ${d.partitionName.slice(-7)} ${d.rowCount}`).sort();
    // January's state rows of M1 ended in April; QUIET's January state is still in force, so that month stays.
    expect(dropped).toEqual([
      'market_state_history 2025_02 0',
      'orderbook_snapshots 2025_01 1',
      'orderbook_snapshots 2025_02 1',
      'pricing_snapshots 2025_01 2',
      'pricing_snapshots 2025_02 1',
      'trades 2025_01 0',
      'trades 2025_02 0',
    ]);
    expect(await monthsOf('pricing_snapshots')).not.toContain('2025_02');
    expect(await monthsOf('market_state_history')).toContain('2025_01');
    const recorded =
      await db.sql`select table_name, row_count, retention_months from prediction.dropped_partitions order by 1, range_start`;
    expect(recorded).toHaveLength(7);
    expect(recorded.filter((r) => r.retention_months !== 3)).toEqual([]);
    // What `status` reports.
    expect(await selectHistoryHorizons(db.sql)).toEqual([
      { tableName: 'market_state_history', horizon: utc(3, 1), partitionsDropped: 1, rowsDropped: '0', lastDroppedAt: expect.any(Date) },
      { tableName: 'orderbook_snapshots', horizon: utc(3, 1), partitionsDropped: 2, rowsDropped: '2', lastDroppedAt: expect.any(Date) },
      { tableName: 'pricing_snapshots', horizon: utc(3, 1), partitionsDropped: 2, rowsDropped: '3', lastDroppedAt: expect.any(Date) },
      { tableName: 'trades', horizon: utc(3, 1), partitionsDropped: 2, rowsDropped: '0', lastDroppedAt: expect.any(Date) },
    ]);

    // Before the horizon: absent, never "not observed" (no row) or a stale value.
    const [before] = await db.sql`select * from analytics.price_as_of('M1', ${utc(2, 20)})`;
    expect(before).toMatchObject({ history_absent: true, status: null, buy_yes_usd: null, quote_observed_at: null });
    // Absent only for a market seen by then: one first seen later, or never, has no row, as without retention.
    expect(await db.sql`select * from analytics.price_as_of('M1', ${utc(1, 5)})`).toHaveLength(0);
    expect(await db.sql`select * from analytics.price_as_of('NEVER', ${utc(2, 20)})`).toHaveLength(0);
    const universe = async (at: Date) =>
      (await db.sql`select market_id from analytics.prices_as_of(${at}::timestamptz) order by 1`).map((r) => r.market_id);
    expect(await universe(utc(1, 5))).toEqual([]);
    expect(await universe(utc(2, 20))).toEqual(['M1', 'QUIET']);
    const unknown = await db.sql`select history_absent from analytics.prices_as_of(array['NEVER'], array[${utc(2, 20)}]::timestamptz[])`;
    expect(unknown.map((r) => r.history_absent)).toEqual([false]);
    // After it, a market whose quote in force was first observed before the horizon: absent too.
    const [quiet] = await db.sql`select * from analytics.price_as_of('QUIET', ${utc(3, 20)})`;
    expect(quiet).toMatchObject({ history_absent: true, buy_yes_usd: null });
    // What is kept answers as before.
    const [kept] = await db.sql`select * from analytics.price_as_of('M1', ${utc(4, 20)})`;
    expect(kept).toMatchObject({ history_absent: false, status: 'closed', buy_yes_usd: '0.520000' });
    const pairs =
      await db.sql`select input_ordinal, history_absent from analytics.prices_as_of(array['M1', 'M1'], array[${utc(2, 20)}, ${utc(5, 20)}]::timestamptz[])`;
    expect(pairs.map((p) => p.history_absent)).toEqual([true, false]);
    const coverage = await db.sql`select started_at, history_absent from analytics.data_coverage order by started_at`;
    expect(coverage.map((c) => c.history_absent)).toEqual([true, false]);

    // Idempotent: nothing more to drop.
    expect((await maintainPartitions(db.sql, { now, retentionMonths: 3 })).dropped).toEqual([]);
  });

  it('postpones a drop that a reader holds up, and drops it on the next run', async () => {
    await fillHistory();
    const reader = await createReaderLogin(db.sql);
    const readerSql = postgres(reader.urlFor(db.url), { max: 1, onnotice: () => {} });
    afterAll(async () => {
      await readerSql.end();
      await reader.drop();
    });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    // The reader reads through the parents only: the partitions' schema is not theirs to browse.
    await expect(readerSql`select count(*) from prediction_partitions.pricing_snapshots_2025_01`).rejects.toThrow(/permission denied/);
    const reading = readerSql.begin(async (tx) => {
      await tx`select count(*) from prediction.pricing_snapshots`;
      locked();
      await held;
    });
    await isLocked;
    const postponed = await maintainPartitions(db.sql, { now: utc(6, 15), retentionMonths: 3 });
    // Oldest first, a partition a transaction: the months of tables the reader does not hold go;
    // the first price month stops retention, and names itself.
    expect(postponed.postponed).toMatch(/^prediction_partitions\.pricing_snapshots_2025_01: .*lock timeout/);
    expect(postponed.dropped.map((d) => d.partitionName)).toEqual(['orderbook_snapshots_2025_01']);
    expect(await db.sql`select partition_name from prediction.dropped_partitions`).toEqual([
      { partition_name: 'orderbook_snapshots_2025_01' },
    ]);
    // A run's upkeep that is put off is a notice of the run (the service logs it as a warning,
    // sync prints it), not a progress line only. No request is sent: the client's URL is never used.
    const client = createPredictionClient({ baseUrl: 'http://127.0.0.1:9/prediction/v1', allowKeyless: true });
    const progress: string[] = [];
    const run = await runJob(
      db.sql,
      client,
      'sync',
      { providers: [], categories: [], now: () => utc(6, 15), progress: (m) => progress.push(m) },
      (ctx) => maintainRunPartitions(ctx, { retentionMonths: 3 }),
    );
    expect(run.status).toBe('succeeded');
    expect(run.notices).toEqual([expect.stringMatching(/^retention postponed to the next run: .*lock timeout/)]);
    expect(progress).toEqual(run.notices);
    release();
    await reading;
    const resumed = await maintainPartitions(db.sql, { now: utc(6, 15), retentionMonths: 3 });
    expect(resumed.postponed).toBeNull();
    expect(resumed.dropped.map((d) => d.partitionName)).toEqual([
      'pricing_snapshots_2025_01',
      'trades_2025_01',
      'market_state_history_2025_02',
      'orderbook_snapshots_2025_02',
      'pricing_snapshots_2025_02',
      'trades_2025_02',
    ]);
  });
});
