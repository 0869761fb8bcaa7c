/**
 * Bench 4 (and 5 at full size): peak RSS, wall time and requests of one `prediction-ingest sync`
 * (the real CLI, in a child process) of a 100k-market world. The simulator runs in this process on
 * a manual clock, so the world stays still during the sync and the minimum number of requests can
 * be computed from it afterwards.
 */
import { execFileSync, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

import { parseConfig } from '../src/config.js';
import { startSimulator } from '../src/simulator/index.js';
import { minimumRequests, requestsByEndpoint } from './support/minimumRequests.js';
import { pollPeakRss } from './support/peakRss.js';
import { fmtInt, printTable, section } from './support/report.js';
import { cleanup, createScratch, dropScratch, type ScratchDb, withDb } from './support/scratchDb.js';

const MARKETS = 100_000;
/** Baseline world: big enough to exercise every phase, small enough that data costs no memory. */
const TINY_MARKETS = 300;
/** Null: every open market's book, as the CLI does by default. A number bounds the sweep (--max-orderbooks). */
const MAX_ORDERBOOKS: number | null = null;
const API_KEY = 'bench-key';
/** PREDICTION_PAGE_SIZE's default. */
const PAGE_SIZE = 100;
const TARGET_RSS_MB = 200;
/** The whole benchmark should stay under ~10 minutes: a longer sync is stopped (SIGTERM, graceful). */
const DEADLINE_MS = 7 * 60_000;
const ROOT = fileURLToPath(new URL('..', import.meta.url));

interface ChildRun {
  exitCode: number | null;
  wallMs: number;
  maxRssKb: number | null;
  /** User + system CPU of the child (getrusage at exit), ms: less sensitive to a busy machine than wall time. */
  cpuMs: number | null;
  /** CPU this process (the simulator) used during the sync, ms. */
  simulatorCpuMs: number;
  /** Highest VmHWM seen while polling /proc: a cross-check of maxRssKb. */
  polledPeakKb: number;
  summary: string;
  stderr: string;
}

function runSyncChild(env: Record<string, string>, args: readonly string[]): Promise<ChildRun> {
  const start = performance.now();
  const cpu0 = process.cpuUsage();
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    // Only what the CLI needs: the benchmark itself does not read the environment.
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const peak = pollPeakRss(child.pid, 200);
  const deadline = setTimeout(() => child.kill('SIGTERM'), DEADLINE_MS);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (exitCode) => {
      const polledPeakKb = peak.stop();
      clearTimeout(deadline);
      const rss = /bench-max-rss-kb (\d+)/.exec(stderr);
      const cpu = /bench-cpu-us (\d+) (\d+)/.exec(stderr);
      const sim = process.cpuUsage(cpu0);
      resolve({
        exitCode,
        wallMs: performance.now() - start,
        maxRssKb: rss ? Number(rss[1]) : null,
        cpuMs: cpu ? (Number(cpu[1]) + Number(cpu[2])) / 1000 : null,
        simulatorCpuMs: (sim.user + sim.system) / 1000,
        polledPeakKb,
        summary:
          stdout
            .trim()
            .split('\n')
            .find((l) => l.startsWith('sync ')) ?? stdout.trim(),
        stderr: stderr
          .replace(/bench-max-rss-kb \d+\n?/, '')
          .replace(/bench-cpu-us \d+ \d+\n?/, '')
          .trim(),
      });
    });
  });
}

interface WorldRun {
  label: string;
  run: ChildRun;
  requests: number;
  byEndpoint: Record<string, Record<string, number>>;
  minimum: number;
  minimumNote: string;
  stored: string;
  /** The listing crawl (first listing opened to last listing complete), and what followed it (the order-book sweep). */
  phases: string;
}

/** One sync of a fresh database from a fresh, still (manual clock) simulator world. */
async function syncWorld(serverUrl: string, label: string, markets: number, cli: readonly string[]): Promise<WorldRun> {
  // The simulator's default shape: what the live service sends today.
  const sim = await startSimulator({ seed: 1, markets, apiKey: API_KEY, rateLimit: { requests: 10_000_000, windowMs: 60_000 } });
  let db: ScratchDb | undefined;
  try {
    db = await createScratch(serverUrl, `bench_sync_rss_${process.pid}`);
    const env = {
      DATABASE_URL: db.url,
      PREDICTION_API_URL: sim.url,
      PREDICTION_API_KEY: API_KEY,
      PREDICTION_RATE_LIMIT_RPM: '10000000',
      LOG_LEVEL: 'warn',
    };
    // The crawl the child runs: its configuration from exactly the environment it is given (default
    // categories `all`: one unfiltered listing per provider).
    const config = parseConfig(env);
    const run = await runSyncChild(env, [...cli, ...(MAX_ORDERBOOKS === null ? [] : ['--max-orderbooks', String(MAX_ORDERBOOKS)])]);
    if (run.exitCode !== 0) console.log(`${label}: sync exited with ${run.exitCode}: ${run.stderr.slice(0, 1500)}`);
    const [r] = await withDb(
      db,
      (sql) => sql<
        {
          requests: number;
          by: Record<string, Record<string, number>>;
          status: string;
          markets: number;
          levels: number;
          crawlMs: number | null;
          restMs: number | null;
          pages: number;
          complete: boolean | null;
        }[]
      >`
      select requests, requests_by_status as by, status, (select count(*)::int from prediction.markets) as markets,
             (select count(*)::int from prediction.orderbook_levels) as levels,
             -- The listings' own coverage rows (not the categories their events carried): the crawl phase.
             extract(epoch from c.last - c.first)::float8 * 1000 as "crawlMs",
             extract(epoch from r.finished_at - c.last)::float8 * 1000 as "restMs", coalesce(c.pages, 0)::int as pages, c.complete
      from prediction.ingest_runs r
      left join lateral (
        select min(started_at) as first, max(finished_at) as last, sum(pages) as pages, bool_and(complete) as complete from prediction.crawl_coverage cc
        where cc.run_id = r.run_id and cc.category = any(${config.categories as string[]}::text[])) c on true
      order by run_id desc limit 1`,
    );
    // A first sync: the closed-events feed over its default span, the last 24 hours.
    const min = minimumRequests(sim.world, config.providers, config.categories, PAGE_SIZE, sim.world.nowSec - 86_400);
    const books = MAX_ORDERBOOKS === null ? min.orderBooks : Math.min(MAX_ORDERBOOKS, min.orderBooks);
    return {
      label,
      run,
      requests: r?.requests ?? 0,
      byEndpoint: r?.by ?? {},
      minimum: min.tradePolls + min.listingPages + min.feedPages + min.categoryCounts + books,
      minimumNote: `${min.tradePolls} trade poll + ${fmtInt(min.listingPages)} listing pages (${min.listings.join(', ')}) + ${fmtInt(min.feedPages)} closed-feed pages + ${fmtInt(min.categoryCounts)} category counts + ${fmtInt(books)} order books`,
      stored: `${fmtInt(r?.markets ?? 0)} markets, ${fmtInt(r?.levels ?? 0)} levels; run ${r?.status ?? 'missing'}`,
      phases:
        !r?.complete || r.crawlMs === null
          ? 'crawl incomplete'
          : `crawl ${(r.crawlMs / 1000).toFixed(1)} s (${fmtInt(r.pages)} pages, ${(r.pages / (r.crawlMs / 1000)).toFixed(1)} pages/s), ` +
            `then ${r.restMs === null ? '?' : (r.restMs / 1000).toFixed(1)} s`,
    };
  } finally {
    await cleanup(
      () => sim.stop(),
      async () => db && dropScratch(serverUrl, db),
    );
  }
}

/**
 * `full`: the 100k-market sync as `npm run cli` and bin/ run it (the compiled dist/), beside
 * 300-market baselines compiled and through tsx (`npm run dev`). `tsx`: the 100k-market sync
 * through tsx only (another ~1 minute, so it is a benchmark of its own, not part of "all").
 */
export async function benchSyncRss(serverUrl: string, variant: 'full' | 'tsx' = 'full'): Promise<void> {
  section(`4. Peak RSS of a ${fmtInt(MARKETS)}-market sync (the CLI in a child process; target ≤ ${TARGET_RSS_MB} MB)`);
  // What `npm run cli` does first: an incremental build of dist/.
  execFileSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: 'inherit' });
  const preload = ['--import', './bench/support/reportMaxRss.mjs'];
  const dist = [...preload, 'bin/prediction-ingest.js', 'sync'];
  const tsx = ['--import', 'tsx', ...preload, 'src/cli/main.ts', 'sync'];
  // Baselines first: what the process costs with (almost) no data, compiled and through tsx.
  const runs =
    variant === 'tsx'
      ? [await syncWorld(serverUrl, `${fmtInt(MARKETS)} markets, through tsx (npm run dev)`, MARKETS, tsx)]
      : [
          await syncWorld(serverUrl, `${TINY_MARKETS} markets, compiled (npm run cli, bin/)`, TINY_MARKETS, dist),
          await syncWorld(serverUrl, `${TINY_MARKETS} markets, through tsx (npm run dev)`, TINY_MARKETS, tsx),
          await syncWorld(serverUrl, `${fmtInt(MARKETS)} markets, compiled (npm run cli, bin/)`, MARKETS, dist),
        ];
  const mb = (kb: number | null) => (kb === null ? 'n/a' : (kb / 1024).toFixed(0));
  printTable(
    'peak RSS of `prediction-ingest sync` (getrusage maxRSS of the child; VmHWM polled every 200 ms as a cross-check)',
    ['run', 'peak RSS MB', 'polled VmHWM MB', 'wall s', 'sync CPU s', 'simulator CPU s', 'requests', 'req/s', 'exit', 'phases', 'stored'],
    runs.map((w) => [
      w.label,
      mb(w.run.maxRssKb),
      mb(w.run.polledPeakKb),
      (w.run.wallMs / 1000).toFixed(1),
      w.run.cpuMs === null ? 'n/a' : (w.run.cpuMs / 1000).toFixed(1),
      (w.run.simulatorCpuMs / 1000).toFixed(1),
      fmtInt(w.requests),
      (w.requests / (w.run.wallMs / 1000)).toFixed(0),
      String(w.run.exitCode),
      w.phases,
      w.stored,
    ]),
  );
  const big = runs[runs.length - 1]!;
  console.log(`summary line (${big.label}): ${big.run.summary}`);
  printTable(
    '5. requests of one cycle against the minimum (target 1.00)',
    ['run', 'requests', 'minimum', 'ratio', 'minimum is', 'by endpoint'],
    runs.map((w) => [
      w.label,
      fmtInt(w.requests),
      fmtInt(w.minimum),
      // A stopped or failed sync is not a whole cycle: its count says nothing about the minimum.
      w.run.exitCode === 0 ? (w.requests / w.minimum).toFixed(3) : `n/a (exit ${w.run.exitCode})`,
      w.minimumNote,
      requestsByEndpoint(w.byEndpoint),
    ]),
  );
}
