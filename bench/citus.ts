/**
 * Bench: the pipeline on a Citus cluster against one Postgres, in the same run on the same machine.
 *
 *   npx tsx bench/citus.ts [--markets N] [--citus URL] [--db URL]
 *
 * The cluster is the coordinator at --citus (default: the one ../shared/tools/citus/cluster.sh
 * starts, postgres://postgres@127.0.0.1:9700/citus); its database is emptied, migrated and laid out
 * (scripts/citus/distribute.sql). The single Postgres is a scratch database on --db. Both get, in turn:
 *   1. a sync of an N-market simulator world (default 10,000; on a manual clock, so both see the
 *      same world), first and then unchanged: wall time of runSyncCycle, every book swept;
 *   2. the write path: 5,000 books of 50 levels, 1,000 books a transaction (writeOrderBooks), into
 *      markets the sync stored: every book new (levels/s), then the same books again (all confirmed);
 *   3. analytics.price_as_of and analytics.candles (1 hour over the day) p95, 300 and 100 calls on
 *      random markets; analytics.market_latest read whole (median of 5).
 * The figures say what distribution costs on one machine: the workers, the coordinator and the
 * client share its cores, so the cluster cannot be faster here.
 */
import { readFileSync } from 'node:fs';

import postgres from 'postgres';

import { createPredictionClient } from '../src/api/client/index.js';
import { migrate } from '../src/db/migrate.js';
import { type Checked, CONCRETE_CATEGORIES, KNOWN_PROVIDERS, type OrderBook } from '../src/domain/types.js';
import { startSimulator } from '../src/simulator/index.js';
import { writeOrderBooks } from '../src/store/writeOrderBooks.js';
import { runSyncCycle } from '../src/sync/runSyncCycle.js';
import { recordShape } from '../src/wire/recordShape.js';
import { measureLatency, seededRandom } from './support/latency.js';
import { fmtInt, fmtMs, median, printTable, section } from './support/report.js';
import { createScratch, DEFAULT_SERVER_URL, dropScratch } from './support/scratchDb.js';

const args = process.argv.slice(2);
const arg = (name: string, fallback: string) => {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] ? args[i + 1]! : fallback;
};
const MARKETS = Number(arg('--markets', '10000'));
const CITUS_URL = arg('--citus', 'postgres://postgres@127.0.0.1:9700/citus');
const SERVER_URL = arg('--db', DEFAULT_SERVER_URL);
const API_KEY = 'bench-key';
const BOOKS = 5_000;
const LEVELS_PER_SIDE = 25;
const BOOKS_PER_WRITE = 1_000;
const LAYOUT = readFileSync(new URL('../scripts/citus/distribute.sql', import.meta.url), 'utf8').replace(/^\\.*$/gm, '');

interface Figures {
  firstSyncMs: number;
  unchangedSyncMs: number;
  newLevelsPerSec: number;
  confirmLevelsPerSec: number;
  priceAsOfP95: number;
  candlesP95: number;
  marketLatestMs: number;
  marketLatestRows: number;
}

async function resetCluster(url: string): Promise<void> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await sql.unsafe('drop schema if exists analytics, prediction, prediction_partitions, drizzle cascade');
    await migrate(url);
    await sql.unsafe(LAYOUT);
  } finally {
    await sql.end();
  }
}

function books(ids: readonly string[], version: number): Checked<OrderBook>[] {
  return ids.map((marketId, i): Checked<OrderBook> => {
    const side = (base: number) =>
      Array.from({ length: LEVELS_PER_SIDE }, (_, k) => ({ priceCents: `${base - k}`, size: `${version}${i % 97}.${k + 1}` }));
    return { ok: true, value: { marketId, yes: side(60), no: side(39), isNull: false, drift: [], shape: recordShape({}, 'orderBook') } };
  });
}

async function measure(label: string, url: string, sim: Awaited<ReturnType<typeof startSimulator>>): Promise<Figures> {
  const sql = postgres(url, { max: 4, onnotice: () => {} });
  const client = createPredictionClient({ baseUrl: sim.url, apiKey: API_KEY, rateLimit: { requests: 10_000_000, windowMs: 60_000 } });
  try {
    const sync = async () => {
      const t0 = performance.now();
      const result = await runSyncCycle(sql, client, {
        providers: KNOWN_PROVIDERS,
        categories: CONCRETE_CATEGORIES,
        maxOrderBooks: null,
        now: () => new Date(sim.world.nowSec * 1000),
      });
      if (result.status !== 'succeeded') throw new Error(`${label}: sync ${result.status}`);
      return performance.now() - t0;
    };
    const firstSyncMs = await sync();
    const unchangedSyncMs = await sync();
    process.stderr.write(`${label}: syncs ${fmtMs(firstSyncMs)} ${fmtMs(unchangedSyncMs)}\n`);

    const ids = (await sql<{ id: string }[]>`select market_id as id from prediction.markets order by market_id limit ${BOOKS}`).map(
      (r) => r.id,
    );
    const writeAll = async (version: number, observedAt: Date) => {
      const all = books(ids, version);
      const t0 = performance.now();
      for (let i = 0; i < all.length; i += BOOKS_PER_WRITE) {
        await writeOrderBooks(sql, {
          runId: null,
          endpoint: '/orderbook/{marketId}',
          fetches: [{ books: all.slice(i, i + BOOKS_PER_WRITE), observedAt }],
        });
      }
      return (ids.length * LEVELS_PER_SIDE * 2) / ((performance.now() - t0) / 1000);
    };
    const at = new Date(sim.world.nowSec * 1000);
    const newLevelsPerSec = await writeAll(1, new Date(at.getTime() + 60_000));
    const confirmLevelsPerSec = await writeAll(1, new Date(at.getTime() + 120_000));

    const random = seededRandom(7);
    const [span] = await sql<
      { from: Date; to: Date }[]
    >`select min(observed_at) as from, max(observed_at) as to from prediction.pricing_snapshots`;
    const pick = () => ids[Math.floor(random() * ids.length)]!;
    const instant = () => new Date(span!.from.getTime() + random() * (span!.to.getTime() - span!.from.getTime() + 1));
    const priceAsOf = await measureLatency(300, () => sql`select * from analytics.price_as_of(${pick()}, ${instant()})`, 30);
    const dayStart = new Date(Math.floor(span!.from.getTime() / 86_400_000) * 86_400_000);
    const candles = await measureLatency(
      100,
      () => sql`select * from analytics.candles(${pick()}, '1 hour', ${dayStart}, ${new Date(dayStart.getTime() + 86_400_000)})`,
      10,
    );
    const latest: number[] = [];
    let marketLatestRows = 0;
    for (let i = 0; i < 6; i++) {
      const t0 = performance.now();
      const rows = await sql`select market_id, yes_mid_usd, event_title from analytics.market_latest`;
      if (i > 0) latest.push(performance.now() - t0);
      marketLatestRows = rows.length;
    }
    return {
      firstSyncMs,
      unchangedSyncMs,
      newLevelsPerSec,
      confirmLevelsPerSec,
      priceAsOfP95: priceAsOf.p95,
      candlesP95: candles.p95,
      marketLatestMs: median(latest),
      marketLatestRows,
    };
  } finally {
    await client.close();
    await sql.end();
  }
}

section(`Citus (coordinator + 2 workers, one machine) against one Postgres: ${fmtInt(MARKETS)}-market world`);
const sim = await startSimulator({
  seed: 5,
  markets: MARKETS,
  apiKey: API_KEY,
  maxPageSize: 100,
  rateLimit: { requests: 10_000_000, windowMs: 60_000 },
});
const scratch = await createScratch(SERVER_URL, 'bench_citus_single');
try {
  const single = await measure('one Postgres', scratch.url, sim);
  await resetCluster(CITUS_URL);
  const cluster = await measure('Citus', CITUS_URL, sim);
  const row = (name: string, f: (x: Figures) => number, fmt: (n: number) => string, higherIsBetter = false) => [
    name,
    fmt(f(single)),
    fmt(f(cluster)),
    `${(higherIsBetter ? f(cluster) / f(single) : f(single) / f(cluster)).toFixed(2)}×`,
  ];
  const perSec = (n: number) => `${fmtInt(Math.round(n))}/s`;
  printTable(
    'same run, same machine',
    ['figure', 'one Postgres', 'Citus', 'Citus speed (1 = same)'],
    [
      row('first sync (every book swept)', (x) => x.firstSyncMs, fmtMs),
      row('unchanged sync', (x) => x.unchangedSyncMs, fmtMs),
      row(`write path, new books (levels/s)`, (x) => x.newLevelsPerSec, perSec, true),
      row(`write path, unchanged books (levels/s)`, (x) => x.confirmLevelsPerSec, perSec, true),
      row('price_as_of p95', (x) => x.priceAsOfP95, fmtMs),
      row('candles 1 h over a day p95', (x) => x.candlesP95, fmtMs),
      row(`market_latest whole (${fmtInt(single.marketLatestRows)} rows), median`, (x) => x.marketLatestMs, fmtMs),
    ],
  );
} finally {
  await sim.stop();
  await dropScratch(SERVER_URL, scratch);
}
