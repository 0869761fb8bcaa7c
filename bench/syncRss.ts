/**
 * Bench 4 (and 5 at full size): peak RSS, wall time and requests of one `prediction-ingest sync`
 * (the real CLI, in a child process) of a 100k-market world. The simulator runs in this process on
 * a manual clock, so the world stays still during the sync and the minimum number of requests can
 * be computed from it afterwards.
 */
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CONCRETE_CATEGORIES, KNOWN_PROVIDERS } from '../src/domain/types.js';
import { startSimulator } from '../src/simulator/index.js';
import { minimumRequests, requestsByEndpoint } from './support/minimumRequests.js';
import { fmtInt, printTable, section } from './support/report.js';
import { cleanup, createScratch, dropScratch, withDb, type ScratchDb } from './support/scratchDb.js';

const MARKETS = 100_000;
/** Baseline world: big enough to exercise every phase, small enough that data costs no memory. */
const TINY_MARKETS = 300;
/** Null: every open market's book, as the CLI does by default. A number bounds the sweep (--max-orderbooks). */
const MAX_ORDERBOOKS: number | null = null;
const API_KEY = 'bench-key';
const PAGE_SIZE = 20;
const TARGET_RSS_MB = 200;
/** The whole benchmark should stay under ~10 minutes: a longer sync is stopped (SIGTERM, graceful). */
const DEADLINE_MS = 7 * 60_000;
const ROOT = fileURLToPath(new URL('..', import.meta.url));

interface ChildRun {
  exitCode: number | null;
  wallMs: number;
  maxRssKb: number | null;
  /** Highest VmHWM seen while polling /proc: a cross-check of maxRssKb. */
  polledPeakKb: number;
  summary: string;
  stderr: string;
}

function runSyncChild(env: Record<string, string>, args: readonly string[]): Promise<ChildRun> {
  const start = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    // Only what the CLI needs: the benchmark itself does not read the environment.
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let polledPeakKb = 0;
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const poll = setInterval(() => {
    try {
      const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
      if (hwm) polledPeakKb = Math.max(polledPeakKb, Number(hwm[1]));
    } catch {
      // The child has exited.
    }
  }, 200);
  const deadline = setTimeout(() => child.kill('SIGTERM'), DEADLINE_MS);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (exitCode) => {
      clearInterval(poll);
      clearTimeout(deadline);
      const rss = /bench-max-rss-kb (\d+)/.exec(stderr);
      resolve({
        exitCode,
        wallMs: performance.now() - start,
        maxRssKb: rss ? Number(rss[1]) : null,
        polledPeakKb,
        summary: stdout.trim().split('\n').find((l) => l.startsWith('sync ')) ?? stdout.trim(),
        stderr: stderr.replace(/bench-max-rss-kb \d+\n?/, '').trim(),
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
}

/** One sync of a fresh database from a fresh, still (manual clock) simulator world. */
async function syncWorld(serverUrl: string, label: string, markets: number, cli: readonly string[]): Promise<WorldRun> {
  const sim = await startSimulator({ shape: 'spec', seed: 1, markets, apiKey: API_KEY, rateLimit: { requests: 10_000_000, windowMs: 60_000 } });
  let db: ScratchDb | undefined;
  try {
    db = await createScratch(serverUrl, `bench_sync_rss_${process.pid}`);
    const env = { DATABASE_URL: db.url, PREDICTION_API_URL: sim.url, PREDICTION_API_KEY: API_KEY, PREDICTION_RATE_LIMIT_RPM: '10000000', LOG_LEVEL: 'warn' };
    const run = await runSyncChild(env, [...cli, ...(MAX_ORDERBOOKS === null ? [] : ['--max-orderbooks', String(MAX_ORDERBOOKS)])]);
    if (run.exitCode !== 0) console.log(`${label}: sync exited with ${run.exitCode}: ${run.stderr.slice(0, 1500)}`);
    const [r] = await withDb(db, (sql) => sql<{ requests: number; by: Record<string, Record<string, number>>; status: string; markets: number; levels: number }[]>`
      select requests, requests_by_status as by, status, (select count(*)::int from prediction.markets) as markets,
             (select count(*)::int from prediction.orderbook_levels) as levels
      from prediction.ingest_runs order by run_id desc limit 1`);
    const min = minimumRequests(sim.world, KNOWN_PROVIDERS, CONCRETE_CATEGORIES, PAGE_SIZE);
    const books = MAX_ORDERBOOKS === null ? min.orderBooks : Math.min(MAX_ORDERBOOKS, min.orderBooks);
    return {
      label, run, requests: r?.requests ?? 0, byEndpoint: r?.by ?? {}, minimum: min.listingPages + books,
      minimumNote: `${fmtInt(min.listingPages)} listing pages + ${fmtInt(books)} order books`,
      stored: `${fmtInt(r?.markets ?? 0)} markets, ${fmtInt(r?.levels ?? 0)} levels; run ${r?.status ?? 'missing'}`,
    };
  } finally {
    await cleanup(() => sim.stop(), async () => db && dropScratch(serverUrl, db));
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
  const runs = variant === 'tsx'
    ? [await syncWorld(serverUrl, `${fmtInt(MARKETS)} markets, through tsx (npm run dev)`, MARKETS, tsx)]
    : [
        await syncWorld(serverUrl, `${TINY_MARKETS} markets, compiled (npm run cli, bin/)`, TINY_MARKETS, dist),
        await syncWorld(serverUrl, `${TINY_MARKETS} markets, through tsx (npm run dev)`, TINY_MARKETS, tsx),
        await syncWorld(serverUrl, `${fmtInt(MARKETS)} markets, compiled (npm run cli, bin/)`, MARKETS, dist),
      ];
  const mb = (kb: number | null) => (kb === null ? 'n/a' : (kb / 1024).toFixed(0));
  printTable('peak RSS of `prediction-ingest sync` (getrusage maxRSS of the child; VmHWM polled every 200 ms as a cross-check)',
    ['run', 'peak RSS MB', 'polled VmHWM MB', 'wall s', 'requests', 'req/s', 'exit', 'stored'],
    runs.map((w) => [w.label, mb(w.run.maxRssKb), mb(w.run.polledPeakKb), (w.run.wallMs / 1000).toFixed(1), fmtInt(w.requests),
      (w.requests / (w.run.wallMs / 1000)).toFixed(0), String(w.run.exitCode), w.stored]));
  const big = runs[runs.length - 1]!;
  console.log(`summary line (${big.label}): ${big.run.summary}`);
  printTable('5. requests of one cycle against the minimum (target 1.00)', ['run', 'requests', 'minimum', 'ratio', 'minimum is', 'by endpoint'],
    runs.map((w) => [w.label, fmtInt(w.requests), fmtInt(w.minimum), (w.requests / w.minimum).toFixed(3), w.minimumNote, requestsByEndpoint(w.byEndpoint)]));
}
