/**
 * Peak RSS of an order-book sweep when the upstream sends huge books: 20 books of 1M levels each
 * (well-formed levels, or unreadable ones), and beside them 20 of the largest books that pass.
 * Each variant runs in a child process of its own (fresh heap, its own peak), against an upstream
 * in yet another process that sends every body chunked (no content-length), through the real
 * client and the real sweep into a scratch database. Target: peak ≤ 400 MB.
 *
 * With the default options a 1M-level book is cut at maxOrderBookBytes; the "parsed" variants
 * raise that cap to maxResponseBytes so that the books are read, parsed and rejected whole, as
 * they were before the cap existed: the bound that rejection itself keeps. Parsing leaves ~70 MB
 * of garbage per book, which V8 collects lazily while its heap limit allows: the "heap 256 MB"
 * variants run with --max-old-space-size=256 (what a container memory limit does to Node) and
 * show what stays alive.
 *
 *   npx tsx bench/hugeBooks.ts                   # every variant (~2 minutes)
 *   npx tsx bench/hugeBooks.ts huge-wellformed   # the variants of one body
 *   npx tsx bench/hugeBooks.ts --db postgres://user@host:5432/postgres
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

import { createPredictionClient } from '../src/api/client/index.js';
import { parseEvent } from '../src/api/parse.js';
import { connect } from '../src/db/connect.js';
import { startRun } from '../src/sql/core/ingestRuns.js';
import { writeEvents } from '../src/store/writeEvents.js';
import { sweepOrderBooks } from '../src/sync/sweepOrderBooks.js';
import { SyncTotals } from '../src/sync/syncTotals.js';
import { peakRssKb } from './support/peakRss.js';
import { fmtInt, printTable, section } from './support/report.js';
import { cleanup, createScratch, DEFAULT_SERVER_URL, dropScratch } from './support/scratchDb.js';

type Body = 'huge-wellformed' | 'huge-malformed' | 'largest-valid';
/**
 * What the client lets through to the parser: its default order-book cap, or all of
 * maxResponseBytes (32 MiB), with V8's default heap limit or one of 256 MB.
 */
type Cap = 'default' | 'parsed' | 'parsed-heap256';
interface Variant {
  body: Body;
  cap: Cap;
}
const VARIANTS: readonly Variant[] = [
  { body: 'huge-wellformed', cap: 'default' },
  { body: 'huge-wellformed', cap: 'parsed' },
  { body: 'huge-wellformed', cap: 'parsed-heap256' },
  { body: 'huge-malformed', cap: 'default' },
  { body: 'huge-malformed', cap: 'parsed' },
  { body: 'huge-malformed', cap: 'parsed-heap256' },
  { body: 'largest-valid', cap: 'default' },
];
const BOOKS = 20;
const LEVELS = 1_000_000;
const TARGET_MB = 400;
/** How often the child samples its own RSS (the kernel's VmHWM is the authoritative peak). */
const SAMPLE_MS = 10;
const ROOT = fileURLToPath(new URL('..', import.meta.url));

interface ChildResult {
  variant: Variant;
  /** Set when the child did not finish (a heap limit reached, say): how it ended. */
  crashed?: string;
  bodyBytes: number;
  baselineMb: number;
  sampledPeakMb: number;
  /** At the sampled peak: V8 heap in use, and memory outside it (buffers: bodies being read). */
  peakHeapMb: number;
  peakExternalMb: number;
  hwmMb: number;
  seconds: number;
  books: number;
  levels: number;
  quarantined: number;
  storedPayloadChars: number;
}

const mb = (bytes: number) => bytes / 1024 / 1024;

function vmHwmMb(): number {
  const kb = peakRssKb('self');
  return kb !== null ? kb / 1024 : mb(process.resourceUsage().maxRSS * 1024);
}

/** Starts the upstream process; resolves with its URL once it listens. */
function startUpstream(variant: Body): Promise<{ url: string; bodyBytes: number; stop: () => void }> {
  const child = spawn(
    process.execPath,
    [fileURLToPath(new URL('./support/hugeBookServer.mjs', import.meta.url)), variant, String(LEVELS)],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.stdout.once('data', (d: Buffer) => {
      const { port, bodyBytes } = JSON.parse(d.toString()) as { port: number; bodyBytes: number };
      resolve({ url: `http://127.0.0.1:${port}/prediction/v1`, bodyBytes, stop: () => child.kill('SIGTERM') });
    });
  });
}

/** The open markets the sweep will visit, one per event, stored the way a crawl stores them. */
function wireEvents(): unknown[] {
  return Array.from({ length: BOOKS }, (_, i) => {
    const marketId = `BENCH-M-${i}`;
    return {
      eventId: `BENCH-E-${i}`,
      series: 'S',
      winner: '',
      multipleWinners: false,
      isActive: true,
      isLive: false,
      isTrending: false,
      isRecommended: false,
      category: 'crypto',
      subcategory: 'btc',
      tvlDollars: '1',
      volumeUsd: '1',
      closeCondition: 'c',
      beginAt: '1767225600',
      rulesPdf: 'r',
      metadata: { eventId: `BENCH-E-${i}`, title: 't', subtitle: '', imageUrl: 'i', isLive: false },
      markets: [
        {
          marketId,
          status: 'open',
          result: null,
          openTime: 1_767_225_600,
          closeTime: 1_900_000_000,
          settlementTime: 0,
          metadata: {
            marketId,
            isTradable: true,
            title: 't',
            subtitle: '',
            description: 'd',
            status: 'open',
            result: '',
            closeTime: 1_900_000_000,
            openTime: 1_767_225_600,
            settlementTime: 0,
            rulesPrimary: 'r',
            rulesSecondary: '',
          },
          pricing: { buyYesPriceUsd: 650000, buyNoPriceUsd: 360000, sellYesPriceUsd: 640000, sellNoPriceUsd: 350000, volume: 1000 + i },
        },
      ],
    };
  });
}

async function child(variant: Variant, serverUrl: string): Promise<ChildResult> {
  const upstream = await startUpstream(variant.body);
  const scratch = await createScratch(serverUrl, scratchName(process.pid));
  const database = connect(scratch.url);
  try {
    const events = wireEvents().map((e) => parseEvent(e, { provider: 'polymarket' }));
    await writeEvents(database.sql, { runId: null, endpoint: '/events', events, observedAt: new Date() });
    // The client as the CLI builds it, but for the key and the rate limit: default concurrency and body caps.
    const client = createPredictionClient({
      baseUrl: upstream.url,
      allowKeyless: true,
      rateLimit: { requests: 1_000_000 },
      ...(variant.cap === 'default' ? {} : { maxOrderBookBytes: 32 * 1024 * 1024 }),
    });
    const totals = new SyncTotals();
    const runId = await startRun(database.sql, 'bench', new Date());
    global.gc?.();
    const baselineMb = mb(process.memoryUsage().rss);
    let peak = process.memoryUsage();
    const sampler = setInterval(() => {
      const now = process.memoryUsage();
      if (now.rss > peak.rss) peak = now;
    }, SAMPLE_MS);
    const started = performance.now();
    try {
      await sweepOrderBooks(
        {
          sql: database.sql,
          client,
          runId,
          providers: ['polymarket'],
          categories: ['all'],
          now: () => new Date(),
          totals,
          batchSize: 50,
          progress: () => {},
        },
        { limit: null },
      );
    } finally {
      clearInterval(sampler);
      await client.close();
    }
    const seconds = (performance.now() - started) / 1000;
    const [stored] = await database.sql<{ books: number; levels: number; quarantined: number; chars: number }[]>`
      select (select count(*)::int from prediction.orderbook_snapshots) as books,
             (select count(*)::int from prediction.orderbook_levels) as levels,
             (select count(*)::int from prediction.rejected_records where endpoint = '/orderbook/{marketId}') as quarantined,
             (select coalesce(max(length(payload::text)), 0)::int from prediction.rejected_records) as chars`;
    return {
      variant,
      bodyBytes: upstream.bodyBytes,
      baselineMb,
      sampledPeakMb: mb(peak.rss),
      peakHeapMb: mb(peak.heapUsed),
      peakExternalMb: mb(peak.external),
      hwmMb: vmHwmMb(),
      seconds,
      books: stored!.books,
      levels: stored!.levels,
      quarantined: stored!.quarantined,
      storedPayloadChars: stored!.chars,
    };
  } finally {
    await cleanup(
      () => database.close(),
      () => dropScratch(serverUrl, scratch),
      async () => upstream.stop(),
    );
  }
}

const scratchName = (pid: number) => `bench_huge_books_${pid}`;

/** Runs one variant in a child process; a child that dies is a row of the table too. */
function runChild(variant: Variant, serverUrl: string): Promise<ChildResult> {
  const heap = variant.cap === 'parsed-heap256' ? ['--max-old-space-size=256'] : [];
  const args = [
    '--expose-gc',
    ...heap,
    '--import',
    'tsx',
    fileURLToPath(import.meta.url),
    '--child',
    `${variant.body}:${variant.cap}`,
    '--db',
    serverUrl,
  ];
  const proc = spawn(process.execPath, args, {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  proc.stdout.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise((resolve, reject) => {
    proc.on('error', reject);
    proc.on('close', (code, signal) => {
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (code === 0 && line) return resolve(JSON.parse(line) as ChildResult);
      const crashed = signal ? `killed by ${signal}` : `exit code ${code}`;
      // A dead child leaves its scratch database behind.
      void dropScratch(serverUrl, { name: scratchName(proc.pid!), url: '' }).then(
        () =>
          resolve({
            variant,
            crashed,
            bodyBytes: 0,
            baselineMb: 0,
            sampledPeakMb: 0,
            peakHeapMb: 0,
            peakExternalMb: 0,
            hwmMb: 0,
            seconds: 0,
            books: 0,
            levels: 0,
            quarantined: 0,
            storedPayloadChars: 0,
          }),
        reject,
      );
    });
  });
}

const label = (r: ChildResult) =>
  r.variant.body === 'largest-valid'
    ? `${BOOKS} × the largest valid book (4 × 10,000 levels)`
    : `${BOOKS} × ${fmtInt(LEVELS)} levels, ${r.variant.body.slice(5)}`;
const capLabel = (r: ChildResult) =>
  ({ default: 'default (4 MiB)', parsed: '32 MiB: read and parsed', 'parsed-heap256': '32 MiB, parsed; heap 256 MB' })[r.variant.cap];

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const dbAt = args.indexOf('--db');
  const serverUrl = dbAt >= 0 ? args[dbAt + 1]! : DEFAULT_SERVER_URL;
  const childAt = args.indexOf('--child');
  if (childAt >= 0) {
    const [body, cap] = args[childAt + 1]!.split(':') as [Body, Cap];
    process.stdout.write(`${JSON.stringify(await child({ body, cap }, serverUrl))}\n`);
    return;
  }
  const chosen = VARIANTS.filter((v) => args.includes(v.body));
  section(`Peak RSS of a sweep of ${BOOKS} huge order books (target ≤ ${TARGET_MB} MB)`);
  const results: ChildResult[] = [];
  for (const variant of chosen.length > 0 ? chosen : VARIANTS) results.push(await runChild(variant, serverUrl));
  printTable(
    'one process per variant; peak = the kernel VmHWM of that process, from start to end of the sweep',
    [
      'books',
      'order-book cap',
      'body MB each',
      'RSS before the sweep MB',
      'peak RSS MB',
      'heap used at the peak MB',
      `≤ ${TARGET_MB} MB`,
      'sweep s',
      'written',
      'quarantined',
      'largest stored payload chars',
    ],
    results.map((r) =>
      r.crashed
        ? [label(r), capLabel(r), '', '', `crashed (${r.crashed})`, '', 'NO', '', '', '', '']
        : [
            label(r),
            capLabel(r),
            mb(r.bodyBytes).toFixed(1),
            r.baselineMb.toFixed(0),
            r.hwmMb.toFixed(0),
            r.peakHeapMb.toFixed(0),
            r.hwmMb <= TARGET_MB ? 'yes' : 'NO',
            r.seconds.toFixed(1),
            `${r.books} books, ${fmtInt(r.levels)} levels`,
            String(r.quarantined),
            fmtInt(r.storedPayloadChars),
          ],
    ),
  );
}

await main();
