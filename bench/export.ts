/**
 * Benchmark of `prediction-ingest export` (Parquet through DuckDB) over a large price history:
 *   - throughput, rows/s, against `COPY (SELECT … the same columns …) TO STDOUT` read by a client
 *     on the same server in the same run                                   target >= 0.5x
 *   - peak RSS of the export process for 10M price rows                    target <= 300 MB
 *   - Parquet bytes per price row
 *
 *   npx tsx bench/export.ts [--markets 1000] [--rows 10000] [--runs 2] [--db URL] [--keep] [--reuse]
 *
 * Creates a scratch database (bench_export) on the local server (or --db, a URL whose user may
 * CREATE DATABASE), migrates it, and generates markets × rows price snapshots with
 * `insert ... select generate_series`, in time order across markets as the pipeline writes them.
 * The export runs as the compiled CLI (`npm run cli` / bin/) in a child process whose peak RSS is
 * its getrusage maxRSS, cross-checked by polling VmHWM. Baselines and exports alternate, `--runs`
 * times each; the medians are reported. `--markets 100` is a quicker 1M-row run.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import postgres from 'postgres';

import { priceHistoryTable } from '../src/export/historyTables.js';
import { pollPeakRss } from './support/peakRss.js';
import { fmtInt, fmtRatio, median, printTable, section } from './support/report.js';
import { cleanup, createScratch, databaseUrl, DEFAULT_SERVER_URL, dropScratch, type ScratchDb } from './support/scratchDb.js';

const { values: args } = parseArgs({
  options: {
    markets: { type: 'string', default: '1000' },
    rows: { type: 'string', default: '10000' },
    runs: { type: 'string', default: '2' },
    db: { type: 'string', default: DEFAULT_SERVER_URL },
    keep: { type: 'boolean', default: false },
    reuse: { type: 'boolean', default: false },
  },
});
const MARKETS = Number(args.markets);
const ROWS_PER_MARKET = Number(args.rows);
const RUNS = Number(args.runs);
const TOTAL = MARKETS * ROWS_PER_MARKET;
const DB_NAME = 'bench_export';
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const START = '2025-01-01T00:00:00Z';
/** One market's snapshots are ~SPACING_S apart (+ jitter): 10k rows span 180 days, ~55k rows a day. */
const SPACING_S = 1555;
const TARGET_RATIO = 0.5;
const TARGET_RSS_MB = 300;

const log = (message: string) => process.stderr.write(`${message}\n`);

async function generate(sql: postgres.Sql): Promise<void> {
  log(`generating ${fmtInt(MARKETS)} markets × ${fmtInt(ROWS_PER_MARKET)} price snapshots = ${fmtInt(TOTAL)} rows`);
  // No default partition: the months of the generated history must exist before it is written.
  await sql`select prediction.ensure_month_partitions(${START}::timestamptz,
                                                      ${START}::timestamptz + make_interval(secs => ${ROWS_PER_MARKET * SPACING_S + 1000}))`;
  await sql`
    insert into prediction.events (event_id, provider, category, raw, first_seen_at, last_seen_at, changed_at)
    select 'E' || m, 'polymarket', 'crypto', '{}', ${START}::timestamptz, now(), now() from generate_series(1, ${MARKETS}) m`;
  await sql`
    insert into prediction.markets (market_id, event_id, provider, status, raw, first_seen_at, last_seen_at, changed_at)
    select 'M' || m, 'E' || m, 'polymarket', 'open', '{}', ${START}::timestamptz, now(), now() from generate_series(1, ${MARKETS}) m`;
  const chunk = Math.max(1, Math.floor(1_000_000 / MARKETS));
  for (let from = 0; from < ROWS_PER_MARKET; from += chunk) {
    const to = Math.min(ROWS_PER_MARKET, from + chunk) - 1;
    // Prices in whole micro-USD around a drifting mid, a spread of 1 to 3 cents, volume growing.
    await sql`
      insert into prediction.pricing_snapshots
        (market_id, observed_at, last_observed_at, buy_yes_micro_usd, buy_no_micro_usd, sell_yes_micro_usd, sell_no_micro_usd, volume)
      select 'M' || m, o.observed_at, o.observed_at + make_interval(secs => floor(random() * 500)),
             p.mid + p.half, 1000000 - p.mid + p.half, p.mid - p.half, 1000000 - p.mid - p.half, i * 10 + m
      from generate_series(${from}::int, ${to}::int) i
      cross join generate_series(1, ${MARKETS}) m
      cross join lateral (select ${START}::timestamptz + make_interval(secs => i::float8 * ${SPACING_S} + floor(random() * 1000)) as observed_at) o
      cross join lateral (select (100000 + floor(random() * 80) * 10000)::numeric as mid, (5000 + floor(random() * 3) * 5000)::numeric as half) p
      order by i, m`;
    process.stderr.write(`\r  ${(((to + 1) / ROWS_PER_MARKET) * 100).toFixed(0)} %`);
  }
  process.stderr.write('\n');
  await sql`vacuum (analyze) prediction.pricing_snapshots, prediction.markets, prediction.events`;
}

interface CopyRun {
  ms: number;
  rows: number;
  bytes: number;
}

/** `COPY (query) TO STDOUT (FORMAT csv)` read to the end by a client that only counts, in the export's session settings. */
async function copyToStdout(url: string, query: string): Promise<CopyRun> {
  const sql = postgres(url, { max: 1, onnotice: () => {}, connection: { TimeZone: 'UTC', DateStyle: 'ISO, YMD' } });
  try {
    const start = performance.now();
    const stream = await sql.unsafe(`copy (${query}) to stdout (format csv)`).readable();
    let rows = 0;
    let bytes = 0;
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) rows++;
    }
    return { ms: performance.now() - start, rows, bytes };
  } finally {
    // The COPY may leave postgres.js's socket paused (see src/export/writeTable.ts): end the pool without waiting on it.
    await sql.end({ timeout: 0 });
  }
}

interface ExportRun {
  ms: number;
  exitCode: number | null;
  maxRssKb: number | null;
  polledPeakKb: number;
  stdout: string;
  stderr: string;
}

/** The compiled CLI (`bin/prediction-ingest.js export`) in a child process, its peak RSS reported at exit. */
function exportChild(url: string, args: readonly string[]): Promise<ExportRun> {
  const start = performance.now();
  const child = spawn(process.execPath, ['--import', './bench/support/reportMaxRss.mjs', 'bin/prediction-ingest.js', 'export', ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', DATABASE_URL: url, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const peak = pollPeakRss(child.pid, 100);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (exitCode) => {
      const polledPeakKb = peak.stop();
      const rss = /bench-max-rss-kb (\d+)/.exec(stderr);
      resolve({
        ms: performance.now() - start,
        exitCode,
        maxRssKb: rss ? Number(rss[1]) : null,
        polledPeakKb,
        stdout: stdout.trim(),
        stderr: stderr
          .replace(/bench-max-rss-kb \d+\n?/, '')
          .replace(/bench-cpu-us \d+ \d+\n?/, '')
          .trim(),
      });
    });
  });
}

function parquetBytes(dir: string): { files: number; bytes: number } {
  let files = 0;
  let bytes = 0;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.parquet')) continue;
    files++;
    bytes += statSync(join(entry.parentPath, entry.name)).size;
  }
  return { files, bytes };
}

async function main(): Promise<void> {
  const serverUrl = args.db;
  let db: ScratchDb = { name: DB_NAME, url: databaseUrl(serverUrl, DB_NAME) };
  const outRoot = mkdtempSync(join(tmpdir(), 'bench-export-'));
  try {
    if (args.reuse) {
      log(`reusing database ${DB_NAME}`);
      // Brings its schema up to date (the export's own state tables).
      execFileSync('node', ['bin/prediction-ingest.js', 'migrate'], {
        cwd: ROOT,
        env: { PATH: process.env.PATH ?? '', DATABASE_URL: db.url },
      });
    } else {
      db = await createScratch(serverUrl, DB_NAME);
      const sql = postgres(db.url, { max: 1, onnotice: () => {} });
      try {
        await generate(sql);
      } finally {
        await sql.end();
      }
    }
    // What `npm run cli` does first: an incremental build of dist/.
    execFileSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: 'inherit' });

    // The export's own query (sorted by day, valid_to from the next row of the day where there is
    // one), and the plain read of the view's columns an analyst would write.
    const sameQuery = priceHistoryTable.select({ from: '-infinity', to: 'infinity', days: null });
    const columns = priceHistoryTable.columns.map((c) => `"${c.name}"`).join(', ');
    const viewQuery = `select ${columns} from analytics.price_history`;

    const baselines: CopyRun[] = [];
    const exports: ExportRun[] = [];
    let lastOut = '';
    for (let run = 1; run <= RUNS; run++) {
      log(`run ${run}/${RUNS}: COPY of the export's query`);
      baselines.push(await copyToStdout(db.url, sameQuery));
      log(`  ${(baselines.at(-1)!.ms / 1000).toFixed(1)} s; run ${run}/${RUNS}: export`);
      lastOut = join(outRoot, `run-${run}`);
      const result = await exportChild(db.url, ['--out', lastOut, '--tables', 'price_history']);
      if (result.exitCode !== 0) throw new Error(`export exited ${result.exitCode}: ${result.stderr}`);
      exports.push(result);
      log(`  ${(result.ms / 1000).toFixed(1)} s, peak RSS ${((result.maxRssKb ?? 0) / 1024).toFixed(0)} MB`);
    }
    log('COPY of the view as is');
    const view = await copyToStdout(db.url, viewQuery);
    log('second export into the same directory, nothing changed');
    const again = await exportChild(db.url, ['--out', lastOut, '--tables', 'price_history']);
    const { files, bytes } = parquetBytes(lastOut);

    const versionSql = postgres(db.url, { max: 1, onnotice: () => {} });
    const [server] = await versionSql<{ v: string }[]>`select current_setting('server_version') as v`.finally(() => versionSql.end());
    const exportMs = median(exports.map((e) => e.ms));
    const copyMs = median(baselines.map((b) => b.ms));
    const peakMb = Math.max(...exports.map((e) => Math.max(e.maxRssKb ?? 0, e.polledPeakKb))) / 1024;
    const perSec = (rows: number, ms: number) => fmtInt((rows / ms) * 1000);
    const rowsChecked = baselines.every((b) => b.rows === TOTAL) && view.rows === TOTAL;

    section(
      `export: ${fmtInt(TOTAL)} price rows (${MARKETS} markets × ${ROWS_PER_MARKET}), Postgres ${server?.v}, ${RUNS} run(s), medians`,
    );
    printTable(
      'throughput',
      ['what', 'time s', 'rows/s', 'vs COPY of the same query'],
      [
        ["COPY (export's query) TO STDOUT, client counting", (copyMs / 1000).toFixed(1), perSec(TOTAL, copyMs), '1.00×'],
        ['COPY (the view as is) TO STDOUT', (view.ms / 1000).toFixed(1), perSec(TOTAL, view.ms), fmtRatio(copyMs / view.ms)],
        [
          'export --tables price_history (CLI, compiled)',
          (exportMs / 1000).toFixed(1),
          perSec(TOTAL, exportMs),
          fmtRatio(copyMs / exportMs),
        ],
        ['second export, nothing changed', (again.ms / 1000).toFixed(1), '', ''],
      ],
    );
    printTable(
      'memory and size',
      ['figure', 'value', 'target'],
      [
        ['peak RSS of the export (maxRSS, VmHWM)', `${peakMb.toFixed(0)} MB`, `≤ ${TARGET_RSS_MB} MB`],
        ['Parquet files', `${files} (one per UTC day)`, ''],
        ['Parquet bytes per price row', (bytes / TOTAL).toFixed(2), ''],
        ['CSV bytes per row from COPY', (median(baselines.map((b) => b.bytes)) / TOTAL).toFixed(1), ''],
        ['rows read by every COPY', rowsChecked ? 'all' : 'MISMATCH', ''],
      ],
    );
    console.log(
      `\nthroughput ratio ${fmtRatio(copyMs / exportMs)} (target ≥ ${TARGET_RATIO}×), peak RSS ${peakMb.toFixed(0)} MB (target ≤ ${TARGET_RSS_MB} MB)`,
    );
    if (again.stdout) console.log(`\nsecond export: ${again.stdout.split('\n').at(-1)?.trim()}`);
  } finally {
    await cleanup(
      async () => rmSync(outRoot, { recursive: true, force: true }),
      async () => (args.keep || args.reuse ? log(`kept database ${DB_NAME}`) : dropScratch(serverUrl, db)),
    );
  }
}

await main();
