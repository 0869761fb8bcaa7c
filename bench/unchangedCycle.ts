/**
 * Bench 3 (and 5 for a mid-size world): two full runSyncCycle runs against an in-process simulator
 * whose world does not move in between. The second, unchanged cycle must add no row, and its WAL
 * should be close to the least the moves it makes need: last_seen_at of every listed event and
 * market, last_observed_at of every confirmed price and book snapshot. That least is measured as
 * plain UPDATEs of exactly those rows on a clone of the database taken before the second cycle.
 */
import type postgres from 'postgres';

import { createPredictionClient } from '../src/api/client/index.js';
import { parseConfig } from '../src/config.js';
import { startSimulator } from '../src/simulator/index.js';
import { CLOSED_FEED_OVERLAP_SEC } from '../src/sync/readClosedFeed.js';
import { runSyncCycle, type SyncResult } from '../src/sync/runSyncCycle.js';
import { measureStep, type StepMeasure } from './support/meter.js';
import { minimumRequests, requestsByEndpoint } from './support/minimumRequests.js';
import { fmtInt, fmtMB, fmtMs, fmtRatio, printTable, section } from './support/report.js';
import { cleanup, cloneScratch, createScratch, dropScratch, type ScratchDb, withDb } from './support/scratchDb.js';

const MARKETS = 10_000;
const API_KEY = 'bench-key';
/** PREDICTION_PAGE_SIZE's default. */
const PAGE_SIZE = 100;

/** Every table of the schema, whatever the migrations add (run accounting and coverage included). */
async function appTables(db: ScratchDb): Promise<string[]> {
  const rows = await withDb(
    db,
    (sql) => sql<{ t: string }[]>`
    select oid::regclass::text as t from pg_class where relnamespace = 'prediction'::regnamespace and relkind = 'r' order by 1`,
  );
  return rows.map((r) => r.t);
}

/** Keys of the rows whose observation time the given run moved, per table. */
async function rowsMovedBy(sql: postgres.Sql, runId: number) {
  const [run] = await sql<{ at: Date }[]>`select started_at as at from prediction.ingest_runs where run_id = ${runId}`;
  const at = run!.at;
  const ids = async (q: Promise<{ k: string }[]>) => (await q).map((r) => r.k);
  return {
    events: await ids(sql`select event_id as k from prediction.events where last_seen_at >= ${at}`),
    markets: await ids(sql`select market_id as k from prediction.markets where last_seen_at >= ${at}`),
    prices: await ids(
      sql`select market_id || '|' || observed_at::text as k from prediction.pricing_snapshots where last_observed_at >= ${at}`,
    ),
    books: await ids(sql`select snapshot_id::text as k from prediction.orderbook_snapshots where last_observed_at >= ${at}`),
  };
}

export async function benchUnchangedCycle(serverUrl: string): Promise<void> {
  section(`3. Unchanged cycle (${fmtInt(MARKETS)}-market simulator, no world step between two runSyncCycle runs)`);
  // The simulator's default shape: what the live service sends today.
  const sim = await startSimulator({ seed: 3, markets: MARKETS, apiKey: API_KEY, rateLimit: { requests: 10_000_000, windowMs: 60_000 } });
  const client = createPredictionClient({ baseUrl: sim.url, apiKey: API_KEY, rateLimit: { requests: 10_000_000 } });
  // The CLI's defaults: every known provider, categories `all` (one unfiltered listing per provider).
  const defaults = parseConfig({});
  const options = { providers: defaults.providers, categories: defaults.categories, maxOrderBooks: null };
  const dbs: ScratchDb[] = [];
  try {
    const db = await createScratch(serverUrl, `bench_sync_unchanged_${process.pid}`);
    dbs.push(db);
    const TABLES = await appTables(db);
    const cycle = async (): Promise<StepMeasure<SyncResult> & { simRequests: number }> => {
      sim.resetRequests();
      // Four connections, as the CLI's pool (connect()).
      const m = await measureStep(db, TABLES, (w) => runSyncCycle(w, client, options), { max: 4 });
      return { ...m, simRequests: sim.counters().total };
    };
    const first = await cycle();
    // Steady state, as after autovacuum; the clone starts from exactly this state.
    await withDb(db, (sql) => sql.unsafe(`vacuum analyze ${TABLES.join(', ')}`));
    const clone = await cloneScratch(serverUrl, db, `bench_sync_unchanged_min_${process.pid}`);
    dbs.push(clone);
    const second = await cycle();
    const moved = await withDb(db, (sql) => rowsMovedBy(sql, second.result.runId));
    const at = new Date();
    const minimal = await measureStep(clone, TABLES, (w) =>
      w.begin(async (tx) => {
        await tx`update prediction.events set last_seen_at = ${at} where event_id = any(${moved.events}::text[])`;
        await tx`update prediction.markets set last_seen_at = ${at} where market_id = any(${moved.markets}::text[])`;
        await tx`update prediction.pricing_snapshots set last_observed_at = ${at}
               where market_id || '|' || observed_at::text = any(${moved.prices}::text[])`;
        await tx`update prediction.orderbook_snapshots set last_observed_at = ${at} where snapshot_id = any(${moved.books}::bigint[])`;
      }),
    );

    const newRows = (m: StepMeasure<unknown>) => Object.values(m.tables).reduce((n, t) => n + t.inserted, 0);
    const sum = (m: StepMeasure<unknown>, f: 'updated' | 'hotUpdated') => Object.values(m.tables).reduce((n, t) => n + t[f], 0);
    const noFpi = (m: StepMeasure<unknown>) => m.wal.bytes - m.wal.fpiBytes;
    // The ratios only mean something for an unchanged cycle.
    const row = (name: string, m: StepMeasure<unknown>, requests: string, note: string, ratios = true) => [
      name,
      requests,
      fmtMs(m.ms),
      fmtMs(m.clientCpuMs),
      fmtInt(newRows(m)),
      fmtInt(sum(m, 'updated')),
      fmtInt(sum(m, 'hotUpdated')),
      fmtMB(noFpi(m)),
      fmtMB(m.wal.bytes),
      ratios ? fmtRatio(noFpi(m) / noFpi(minimal)) : '',
      ratios ? fmtRatio(m.wal.bytes / minimal.wal.bytes) : '',
      note,
    ];
    const rows2 = second.result.totals.rowsByTable;
    printTable(
      'unchanged cycle: new rows (target 0) and WAL against the moves alone (target ≤ 1.20×)',
      [
        'step',
        'requests',
        'ms',
        'CPU ms (sync + simulator)',
        'new rows',
        'updates',
        'HOT',
        'WAL MB w/o FPI',
        'WAL MB',
        'vs min w/o FPI',
        'vs min',
        'what',
      ],
      [
        row('cycle 1 (first load)', first, fmtInt(first.result.totals.requests), 'runSyncCycle into an empty database', false),
        row(
          'cycle 2 (unchanged)',
          second,
          fmtInt(second.result.totals.requests),
          `rowsByTable: ${Object.entries(rows2)
            .map(([t, n]) => `${t} ${n}`)
            .join(', ')} (run accounting rows are new by design)`,
        ),
        row(
          'minimum: plain UPDATEs',
          minimal,
          '',
          `${fmtInt(moved.events.length)} events, ${fmtInt(moved.markets.length)} markets, ` +
            `${fmtInt(moved.prices.length)} price and ${fmtInt(moved.books.length)} book snapshots`,
        ),
      ],
    );
    const rel = (m: StepMeasure<unknown>) =>
      m.wal.byRelation
        .slice(0, 8)
        .map((r) => `${r.relation} ${fmtMB(r.bytes - r.fpiBytes)}`)
        .join('; ');
    console.log(`\nWAL w/o FPI by relation (MB):\n  cycle 2: ${rel(second)}\n  minimum: ${rel(minimal)}`);
    const fpi = (m: StepMeasure<unknown>) =>
      m.wal.byRelation
        .filter((r) => r.fpiBytes > 0)
        .sort((a, b) => b.fpiBytes - a.fpiBytes)
        .slice(0, 8)
        .map((r) => `${r.relation} ${fmtMB(r.fpiBytes)}`)
        .join('; ');
    console.log(`FPI by relation (MB):\n  cycle 2: ${fpi(second)}\n  minimum: ${fpi(minimal)}`);
    console.log(
      `server-wide WAL (MB, includes other sessions): cycle 2 ${fmtMB(second.wal.serverBytes)}, minimum ${fmtMB(minimal.wal.serverBytes)}`,
    );
    console.log(
      `checkpoints during the step (server-wide; each one makes the next change of every page write its full image again): ` +
        `cycle 2 ${second.wal.checkpoints}, minimum ${minimal.wal.checkpoints}`,
    );

    // The first cycle reads the closed-events feed over its default span (24 h), the second from its watermark minus the overlap.
    const mins = [
      minimumRequests(sim.world, options.providers, options.categories, PAGE_SIZE, sim.world.nowSec - 86_400),
      minimumRequests(sim.world, options.providers, options.categories, PAGE_SIZE, sim.world.nowSec - CLOSED_FEED_OVERLAP_SEC),
    ];
    printTable(
      '5. requests per cycle against the minimum (target 1.00)',
      ['cycle', 'requests (run)', 'requests (simulator saw)', 'minimum', 'ratio', 'by endpoint'],
      [first, second].map((c, i) => [
        `cycle ${i + 1}`,
        fmtInt(c.result.totals.requests),
        fmtInt(c.simRequests),
        fmtInt(mins[i]!.total),
        (c.result.totals.requests / mins[i]!.total).toFixed(3),
        requestsByEndpoint(c.result.totals.requestsByStatus),
      ]),
    );
    for (const [i, min] of mins.entries()) {
      console.log(
        `cycle ${i + 1} minimum = ${fmtInt(min.listingPages)} listing pages (Σ max(1, ceil(listed events / ${PAGE_SIZE})) over the crawl plan: ` +
          `${min.listings.join(', ')}) + ${fmtInt(min.feedPages)} closed-feed pages + ${fmtInt(min.categoryCounts)} category counts + ` +
          `${fmtInt(min.orderBooks)} order books (open markets of what the listings and the feed showed) + ${min.tradePolls} poll of the trade feed`,
      );
    }
  } finally {
    await cleanup(
      () => client.close(),
      () => sim.stop(),
      () => dropScratch(serverUrl, ...dbs),
    );
  }
}
