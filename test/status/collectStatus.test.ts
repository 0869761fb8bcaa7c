import { is } from 'drizzle-orm';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { PredictionClient } from '../../src/api/client/index.js';
import { CONCRETE_CATEGORIES, KNOWN_PROVIDERS } from '../../src/domain/types.js';
import * as schema from '../../src/schema/index.js';
import type { Simulator } from '../../src/simulator/index.js';
import { collectStatus, type StatusRequest } from '../../src/status/collectStatus.js';
import { formatStatus } from '../../src/status/formatStatus.js';
import { runJob } from '../../src/sync/runJob.js';
import type { SyncResult } from '../../src/sync/runSyncCycle.js';
import { sweepOrderBooks } from '../../src/sync/sweepOrderBooks.js';
import { startHarness, syncOnce } from '../helpers/syncHarness.js';
import { createTestDatabase, type TestDatabase, useTestDatabase } from '../helpers/testDatabase.js';

// status against a database the simulator filled: two syncs on its manual clock (the second
// 100 s later, refreshing only some order books), so every count and age is known exactly.

const db = await useTestDatabase();
let sim: Simulator;
let client: PredictionClient;
let first: SyncResult;
let second: SyncResult;
let t0Ms: number;
/** Open markets after the first sync, and how many of their books the second refreshes. */
let openMarkets: number;
let refreshed: number;

const at = (offsetSec: number) => new Date(t0Ms + offsetSec * 1000);
const request = (atSec: number, sinceSec: number): StatusRequest => ({
  at: at(atSec),
  since: at(sinceSec),
  thresholds: { listingMaxAgeSec: 600, bookMaxAgeSec: 900 },
  providers: KNOWN_PROVIDERS,
  categories: CONCRETE_CATEGORIES,
  rateLimitRpm: 120,
  retentionMonths: null,
});

/** Postgres's percentile_cont: linear interpolation between the closest ranks. */
function percentileCont(sorted: readonly number[], p: number): number {
  const rank = (sorted.length - 1) * p;
  const below = sorted[Math.floor(rank)]!;
  const above = sorted[Math.ceil(rank)]!;
  return below + (above - below) * (rank - Math.floor(rank));
}

/** What these runs read, per endpoint: [accepted, accepted with drift, rejected], summed. */
function endpointCounts(results: readonly SyncResult[]): Record<string, number[]> {
  const sums: Record<string, number[]> = {};
  for (const r of results) {
    for (const [endpoint, c] of Object.entries(r.totals.recordsByEndpoint)) {
      const [a, d, x] = sums[endpoint] ?? [0, 0, 0];
      sums[endpoint] = [a! + c.accepted, d! + c.acceptedWithDrift, x! + c.rejected];
    }
  }
  return sums;
}

beforeAll(async () => {
  const harness = await startHarness({ markets: 60 });
  sim = harness.sim;
  client = harness.newClient();
  t0Ms = sim.world.nowSec * 1000;
  first = await syncOnce(db.sql, client, sim);
  const listed = new Set(sim.world.events().flatMap((e) => (e.isActive ? e.marketIds : [])));
  openMarkets = sim.world.markets().filter((m) => m.status === 'open' && listed.has(m.marketId)).length;
  // So many that p50 is 0 s and the 90th percentile falls where the ages turn from 0 s to 100 s.
  refreshed = Math.ceil(0.9 * (openMarkets - 1));
  // Nothing changes upstream but some records now arrive malformed (the same ones on every
  // request; a share this run is told to tolerate): the second sync observes the rest again
  // 100 s later, and only some of the order books.
  sim.faults.set({ malformedRate: 0.1 });
  second = await syncOnce(db.sql, client, sim, { maxOrderBooks: refreshed, now: () => at(100), maxRejectedPercent: 50 });
  sim.faults.set({ malformedRate: 0 });
});
afterAll(async () => {
  await client.close();
  await sim.stop();
});

describe('status on a database the simulator filled', () => {
  it('reports the latest run of each job with its counts', async () => {
    expect([first.status, second.status]).toEqual(['succeeded', 'succeeded']);
    expect([first.totals.recordsRejected, second.totals.recordsRejected > 0]).toEqual([0, true]);
    const report = await collectStatus(db.sql, request(100, -3600));
    expect(report.jobs.map((j) => [j.job, j.lastRun?.runId ?? null])).toEqual([
      ['crawl', null],
      ['details', null],
      ['orderbooks', null],
      ['sync', second.runId],
      ['trades', null],
    ]);
    const sync = report.jobs.find((j) => j.job === 'sync')!;
    // Each sync polled the trade feed once; the first poll has nothing before it to join.
    const [feed] = await db.sql<{ trades: number; gaps: number }[]>`
      select (select count(*)::int from prediction.trades) as trades,
             (select count(*)::int from prediction.trade_polls where gap_before) as gaps`;
    expect(report.trades).toMatchObject({ polls: 2, trades: feed!.trades, gaps: feed!.gaps });
    expect(feed!.gaps).toBeGreaterThanOrEqual(1);
    const rows = Object.values(second.totals.rowsByTable).reduce((n, r) => n + r, 0);
    expect(sync.lastRun).toEqual({
      runId: second.runId,
      status: 'succeeded',
      startedAt: at(100),
      finishedAt: at(100),
      // The simulator's clock stands still during a sync.
      durationMs: 0,
      requests: second.totals.requests,
      recordsSeen: second.totals.recordsSeen,
      recordsWritten: second.totals.recordsWritten,
      recordsRejected: second.totals.recordsRejected,
      rowsWritten: rows,
      rowsByTable: second.totals.rowsByTable,
      error: null,
    });
    expect(sync.lastFinishedRun).toEqual(sync.lastRun);
    expect(sync.runsSince).toEqual({ succeeded: 2 });
    expect(report.verdict).toBe('healthy');
    expect(report.problems).toEqual([]);
  });

  it('tells each listing how fresh it is, and what it holds', async () => {
    const report = await collectStatus(db.sql, request(100, -3600));
    const expected = KNOWN_PROVIDERS.flatMap((provider) => CONCRETE_CATEGORIES.map((category) => `${provider}/${category}`));
    const listings = report.freshness.listings;
    expect(listings.filter((l) => l.expected).map((l) => `${l.provider}/${l.category}`)).toEqual(expected.sort());
    for (const l of listings) {
      // Everything stored came from the first sync, which read every record soundly.
      const events = sim.world.events().filter((e) => e.isActive && e.provider === l.provider && e.category === l.category);
      const marketIds = events.flatMap((e) => e.marketIds);
      const open = marketIds.filter((id) => sim.world.market(id)!.status === 'open');
      expect(l, `${l.provider}/${l.category}`).toEqual({
        provider: l.provider,
        category: l.category,
        expected: true,
        events: events.length,
        activeEvents: events.length,
        markets: marketIds.length,
        openMarkets: open.length,
        lastCompleteCrawlStartedAt: at(100),
        lastCompleteCrawlFinishedAt: at(100),
        ageSec: 0,
        crawlsSince: 2,
        completeCrawlsSince: 2,
      });
    }
    expect(listings.reduce((n, l) => n + l.openMarkets, 0)).toBe(openMarkets);
  });

  it('gives the age distribution of the open markets’ books', async () => {
    const report = await collectStatus(db.sql, request(100, -3600));
    const books = report.freshness.orderBooks;
    const n = books.openMarkets;
    // The books the second sync refreshed are 0 s old, the others were last confirmed by the first sync.
    const ages = [...Array<number>(refreshed).fill(0), ...Array<number>(n - refreshed).fill(100)];
    expect(books).toEqual({
      openMarkets: n,
      withoutBook: 0,
      p50AgeSec: percentileCont(ages, 0.5),
      p90AgeSec: percentileCont(ages, 0.9),
      maxAgeSec: 100,
    });
    expect(n).toBe(openMarkets);
    expect([books.p50AgeSec, n - refreshed > 0, n > 12]).toEqual([0, true, true]);
  });

  it('counts drift and quarantine since --since', async () => {
    const all = await collectStatus(db.sql, request(100, -3600));
    const byEndpoint = (r: typeof all) =>
      Object.fromEntries(r.intake.byEndpoint.map((e) => [e.endpoint, [e.accepted, e.acceptedWithDrift, e.rejected]]));
    expect(byEndpoint(all)).toEqual(endpointCounts([first, second]));
    expect(all.intake.totals.rejected).toBe(second.totals.recordsRejected);
    const [changes] = await db.sql<{ n: number }[]>`select count(*)::int as n from analytics.upstream_drift`;
    expect(all.intake.upstreamChanges.count).toBe(changes!.n);
    // Each malformed record is one quarantine row.
    const quarantine = all.intake.quarantine;
    expect(quarantine).toMatchObject({ records: second.totals.recordsRejected, newRecords: second.totals.recordsRejected });
    expect(quarantine.groupCount).toBeLessThanOrEqual(10);
    expect(quarantine.groups.reduce((n, g) => n + g.records, 0)).toBe(second.totals.recordsRejected);

    // Since between the two syncs: only the second one's reading, and the shapes it saw first (its malformed records).
    const later = await collectStatus(db.sql, request(100, 50));
    expect(byEndpoint(later)).toEqual(endpointCounts([second]));
    expect(later.jobs.find((j) => j.job === 'sync')!.runsSince).toEqual({ succeeded: 1 });
    const [newer] = await db.sql<{ n: number }[]>`select count(*)::int as n from analytics.upstream_drift where last_seen_at >= ${at(50)}`;
    expect(later.intake.upstreamChanges.count).toBe(newer!.n);
    expect(later.intake.upstreamChanges.changes.filter((c) => c.lastSeenAt.getTime() !== at(100).getTime())).toEqual([]);
    expect(later.intake.quarantine).toMatchObject({ records: second.totals.recordsRejected, newRecords: second.totals.recordsRejected });
    expect(later.freshness.listings.filter((l) => l.crawlsSince !== 1 || l.completeCrawlsSince !== 1)).toEqual([]);
  });

  it('measures the request rate over the 15 minutes before it, or over the time since the first run when it is younger', async () => {
    // The first sync ran 100 s before: its requests and the second's are spread over those 100 s, not 15 minutes.
    const report = await collectStatus(db.sql, request(100, -3600));
    const requests = first.totals.requests + second.totals.requests;
    const perMin = requests / (100 / 60);
    expect(report.requestRate).toMatchObject({
      windowSec: 100,
      fromAt: at(0),
      requests,
      requestsPerMin: perMin,
      limitRpm: 120,
      usedPercent: (perMin / 120) * 100,
      runningRuns: 0,
      byJob: [{ job: 'sync', requests, runs: 2, running: 0, firstStartedAt: at(0) }],
    });
    expect(report.settings.rateWindowSec).toBe(900);
    expect(formatStatus(report)).toContain('Request rate over the last 1m 40s (since the first run within the last 15m)');
    // 15 minutes after the first sync, only the second one is in the window, which starts with it.
    const later = await collectStatus(db.sql, request(900 + 50, -3600));
    expect(later.requestRate).toMatchObject({ requests: second.totals.requests, windowSec: 850, fromAt: at(100) });
    // A window the runs fill whole is the whole 15 minutes.
    const full = await collectStatus(db.sql, request(900, -3600));
    expect(full.requestRate).toMatchObject({ windowSec: 900, fromAt: at(0), requestsPerMin: requests / 15 });
  });

  it('sizes every table of the prediction schema', async () => {
    const report = await collectStatus(db.sql, request(100, -3600));
    const declared = (Object.values(schema) as unknown[])
      .filter((v): v is PgTable => is(v, PgTable))
      .map((t) => getTableConfig(t))
      .filter((c) => c.schema === 'prediction')
      .map((c) => c.name);
    const topLevel = report.database.tables.filter((t) => t.partitionOf === null);
    expect(topLevel.map((t) => t.table).sort()).toEqual(declared.sort());
    expect(topLevel.filter((t) => !(t.bytes > 0))).toEqual([]);
    expect(report.database.totalBytes).toBe(topLevel.reduce((n, t) => n + t.bytes, 0));
    // The monthly partitions (in their own schema) are listed under their tables, each table's rows summed over them.
    const partitioned = ['market_state_history', 'orderbook_snapshots', 'pricing_snapshots', 'trades'];
    expect([...new Set(report.database.tables.flatMap((t) => (t.partitionOf === null ? [] : [t.partitionOf])))].sort()).toEqual(
      partitioned,
    );
    await db.sql`analyze prediction.pricing_snapshots`;
    const analyzed = await collectStatus(db.sql, request(100, -3600));
    const [count] = await db.sql<{ n: number }[]>`select count(*)::int as n from prediction.pricing_snapshots`;
    expect(analyzed.database.tables.find((t) => t.table === 'pricing_snapshots')?.rowsEstimate).toBe(count!.n);
    expect(analyzed.database.retention).toEqual({ months: null, horizons: [] });
  });

  it('is unhealthy when the data is older than allowed', async () => {
    // At +950 s most books (refreshed at +100 s) are 850 s old, within the 900 allowed; the rest 950 s.
    const report = await collectStatus(db.sql, request(950, -3600));
    expect(report.verdict).toBe('unhealthy');
    expect(report.freshness.orderBooks).toMatchObject({ p50AgeSec: 850, maxAgeSec: 950 });
    expect(report.problems.filter((p) => p.kind === 'stale_listing')).toHaveLength(KNOWN_PROVIDERS.length * CONCRETE_CATEGORIES.length);
    expect(report.problems.find((p) => p.kind === 'stale_listing')!.message).toBe(
      'listing kalshi/crypto: latest complete crawl ended 14m 10s ago (allowed 10m)',
    );
    expect(report.problems.filter((p) => p.kind === 'stale_order_books').map((p) => p.message)).toEqual([
      `order books: the oldest of the ${report.freshness.orderBooks.openMarkets} open markets' books is 15m 50s old (allowed 15m)`,
    ]);
    // Within both allowances, nothing is stale.
    expect((await collectStatus(db.sql, request(600 + 100, -3600))).problems).toEqual([]);
  });

  it('is unhealthy after a failed run since --since, and ignores an aborted one', async () => {
    const options = { providers: KNOWN_PROVIDERS, categories: CONCRETE_CATEGORIES, now: () => at(200) };
    await expect(
      runJob(db.sql, client, 'orderbooks', options, () => Promise.reject(new Error('the order-book endpoint answered nonsense'))),
    ).rejects.toThrow('nonsense');
    const stop = new AbortController();
    await expect(
      runJob(db.sql, client, 'details', { ...options, signal: stop.signal }, () => {
        stop.abort();
        return Promise.reject(new Error('stopped'));
      }),
    ).rejects.toThrow('stopped');

    const report = await collectStatus(db.sql, request(200, -3600));
    const failed = report.jobs.find((j) => j.job === 'orderbooks')!.lastFinishedRun!;
    expect(report.jobs.find((j) => j.job === 'details')!.lastRun!.status).toBe('aborted');
    expect(report.verdict).toBe('unhealthy');
    expect(report.problems).toEqual([
      {
        kind: 'last_run_failed',
        severity: 'unhealthy',
        message: `orderbooks: latest run ${failed.runId} failed: the order-book endpoint answered nonsense`,
      },
    ]);
    // A failure before --since is left to the staleness rules.
    expect((await collectStatus(db.sql, request(300, 250))).verdict).toBe('healthy');
  });
});

describe('status on an empty database, then one with a partitioned table', () => {
  let bare: TestDatabase;
  beforeAll(async () => {
    bare = await createTestDatabase();
    return () => bare.close();
  });

  it('is unhealthy while nothing was ever ingested', async () => {
    const report = await collectStatus(bare.sql, request(0, -3600));
    expect(report.verdict).toBe('unhealthy');
    expect(report.problems.map((p) => p.kind)).toEqual(['no_runs']);
    expect(report.jobs.filter((j) => j.lastRun !== null || j.lastFinishedRun !== null)).toEqual([]);
    expect(report.freshness).toEqual({
      listings: [],
      orderBooks: { openMarkets: 0, withoutBook: 0, p50AgeSec: null, p90AgeSec: null, maxAgeSec: null },
      bookFetches: {
        comparedFetches: 0,
        changedShare: null,
        activeDecileMarkets: 0,
        activeDecileP50AgeSec: null,
        activeDecileMaxAgeSec: null,
      },
    });
    expect(report.requestRate).toMatchObject({ requests: 0, requestsPerMin: 0, runningRuns: 0, byJob: [] });
    expect(report.intake.quarantine).toEqual({ records: 0, newRecords: 0, groups: [], groupCount: 0 });
  });

  it('sizes a partitioned table as the sum of its partitions, and lists each partition', async () => {
    await bare.sql`create table prediction.status_probe (k int not null, v text) partition by range (k)`;
    await bare.sql`create table prediction.status_probe_low partition of prediction.status_probe for values from (0) to (1000)`;
    await bare.sql`create table prediction.status_probe_high partition of prediction.status_probe for values from (1000) to (2000)`;
    await bare.sql`insert into prediction.status_probe select k, repeat('x', 200) from generate_series(0, 1999) k`;
    const { database } = await collectStatus(bare.sql, request(0, -3600));
    const size = (name: string) => database.tables.find((t) => t.table === name);
    expect([size('status_probe_low')?.partitionOf, size('status_probe_high')?.partitionOf, size('status_probe')?.partitionOf]).toEqual([
      'status_probe',
      'status_probe',
      null,
    ]);
    const [actual] = await bare.sql<{ low: string; high: string }[]>`
      select pg_total_relation_size('prediction.status_probe_low') as low, pg_total_relation_size('prediction.status_probe_high') as high`;
    expect([size('status_probe_low')!.bytes, size('status_probe_high')!.bytes]).toEqual([Number(actual!.low), Number(actual!.high)]);
    expect(size('status_probe')!.bytes).toBe(Number(actual!.low) + Number(actual!.high));
    expect([size('status_probe_low')?.packed, size('status_probe')?.packed]).toEqual([false, null]);
    // Counted once: through the partitioned table, not again through its partitions.
    const topLevel = database.tables.filter((t) => t.partitionOf === null);
    expect(database.totalBytes).toBe(topLevel.reduce((n, t) => n + t.bytes, 0));
  });
});

describe('status on a database with a malformed record received twice, then a long run', () => {
  let other: TestDatabase;
  let rejected: number;
  beforeAll(async () => {
    other = await createTestDatabase();
    // The same malformed records both times: quarantined by the first sync, received again by the second.
    sim.faults.set({ malformedRate: 0.1 });
    try {
      const runs = [];
      for (const offsetSec of [0, 100])
        runs.push(await syncOnce(other.sql, client, sim, { now: () => at(offsetSec), maxRejectedPercent: 50 }));
      rejected = runs[1]!.totals.recordsRejected;
      expect(runs[0]!.totals.recordsRejected).toBe(rejected);
    } finally {
      sim.faults.set({ malformedRate: 0 });
    }
    return () => other.close();
  });

  it('counts as new only the quarantined records first received since --since', async () => {
    expect(rejected).toBeGreaterThan(0);
    expect((await collectStatus(other.sql, request(100, 50))).intake.quarantine).toMatchObject({ records: rejected, newRecords: 0 });
    expect((await collectStatus(other.sql, request(100, -10))).intake.quarantine).toMatchObject({
      records: rejected,
      newRecords: rejected,
    });
  });

  it('counts the share of a run that falls in the request-rate window', async () => {
    // A sweep that starts at +1000 s and whose every later reading of the clock is +1600 s: a 10-minute run.
    let started = false;
    const run = await runJob(
      other.sql,
      client,
      'orderbooks',
      { providers: KNOWN_PROVIDERS, categories: CONCRETE_CATEGORIES, now: () => (started ? at(1600) : ((started = true), at(1000))) },
      (ctx) => sweepOrderBooks(ctx, { limit: 6 }).then(() => {}),
    );
    expect([run.totals.requests, run.durationMs]).toEqual([6, 600_000]);
    // The window [+1100 s, +2000 s] holds the last 500 of its 600 s, and neither sync.
    const { requestRate } = await collectStatus(other.sql, request(2000, -3600));
    expect(requestRate.byJob).toEqual([{ job: 'orderbooks', requests: 5, runs: 1, running: 0, firstStartedAt: at(1000) }]);
    expect(requestRate.requestsPerMin).toBe(5 / 15);
  });
});
