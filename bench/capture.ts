/**
 * Information per request: runs the service (its scheduler, client and writers) against a world
 * of heavy-tailed activity and measures what it captured against the world's true states. Run on
 * demand, never in tests:
 *
 *   npx tsx bench/capture.ts [--rpm 60,600,3000] [--runs 2] [--first-run 1] [--markets N] [--warm S] [--hot-events N] [--sweep-every S] [--default-schedules] [--db postgres://...] [--once]
 *
 * For each rate and run: a scratch database, a simulator in real time (Zipf change rates, the
 * busiest every 2 s), the service at that plan's rate with schedules scaled to it, a warm-up, then
 * a measured window sampled every half second. It reports F, Fv and C (bench/README.md), the
 * requests by kind, the budget used and 429s, and the two references replayed on the same change
 * log with the same number of book fetches. `--once` runs the sweep without the plan's rate (each
 * book at most once a sweep), as before the schedule. `--default-schedules` runs every job on the
 * service's default schedule (a crawl every 10 minutes, a sweep a minute), as `serve` starts it
 * without settings. Run k's world has seed 100 + k; `--first-run` numbers the runs from another k,
 * for worlds the runs before did not see. See bench/README.md.
 */
import { loadavg } from 'node:os';

import { createPredictionClient } from '../src/api/client/index.js';
import { parseOrderBook } from '../src/api/parse.js';
import { HOT_EVENTS_DEFAULT, parseConfig } from '../src/config.js';
import { KNOWN_PROVIDERS } from '../src/domain/types.js';
import { createLogger } from '../src/log/createLogger.js';
import { createMetrics } from '../src/ops/metrics.js';
import { bookInformation } from '../src/plan/bookInformation.js';
import { startService } from '../src/service/startService.js';
import { startSimulator } from '../src/simulator/index.js';
import { selectBookCandidates } from '../src/sql/targets/selectBookCandidates.js';
import { contentHash } from '../src/sql/writes/recordOrderBooks.js';
import { allocateBooks } from '../src/sync/bookSchedule.js';
import { weightedFreshness } from '../src/sync/fetchAllocation.js';
import { JOB_PRIORITY, type JobName } from '../src/sync/jobCatalog.js';
import { firstPlanSec } from '../src/sync/planEndMs.js';
import { DEFAULT_BATCH_SIZE } from '../src/sync/runJob.js';
import { sweepBatch } from '../src/sync/sweepOrderBooks.js';
import {
  bestForC,
  bestForFv,
  measurePeriodic,
  type Measures,
  measureStored,
  roundRobin,
  type StoredBook,
  type TrueBook,
} from './support/freshness.js';
import { log, printTable, section } from './support/report.js';
import { createScratch, DEFAULT_SERVER_URL, dropScratch, withDb } from './support/scratchDb.js';

const API_KEY = 'bench-capture-key';
/** The sweep's period of each profile, s. */
const PERIOD_SEC: Record<number, number> = { 60: 20, 600: 10, 3000: 5 };

/** Schedules scaled to each rate, so a run finishes in a few minutes; warm-up and measured window, s. */
/**
 * At 60 rpm the sweep fetches under a book a second: 600 books take 12 minutes to fetch once, so
 * the profile's world is a tenth of the others', its busiest market as busy, and its warm-up long
 * enough for each book to be fetched a few times first. Its Fv rests on a few busy books: over a
 * 180-s window the changes' own draw moved it by 5–6 % (one standard deviation, the run's fetch
 * times kept and the changes drawn again), so its window is 540 s.
 */
const PROFILES: Record<number, { schedules: Record<JobName, string>; markets: number; warmSec: number; measureSec: number }> = {
  60: {
    schedules: { crawl: '*/60 * * * * *', details: '30 */2 * * * *', trades: '0 * * * * *', orderbooks: '*/20 * * * * *' },
    markets: 60,
    warmSec: 180,
    measureSec: 540,
  },
  600: {
    schedules: { crawl: '*/20 * * * * *', details: '*/60 * * * * *', trades: '0 * * * * *', orderbooks: '*/10 * * * * *' },
    markets: 600,
    warmSec: 60,
    measureSec: 150,
  },
  3000: {
    schedules: { crawl: '*/10 * * * * *', details: '*/30 * * * * *', trades: '0 * * * * *', orderbooks: '*/5 * * * * *' },
    markets: 600,
    warmSec: 45,
    measureSec: 120,
  },
};

interface RunResult {
  rpm: number;
  service: Measures;
  roundRobin: Measures;
  best: Measures;
  /**
   * C's best blind reference: of the two allocations for known rates, replayed, the one that
   * stored more (bestForC, which counts each book's state at the window's start as one to fetch
   * in the window, or Fv's best, which is C's over a long window).
   */
  bestC: Measures;
  /** bestForC replayed: its C counting only fetches within the window is the reference for `CInWindow`. */
  bestCInWindow: Measures;
  bookFetches: number;
  listings: number;
  details: number;
  /** Polls of the trade feed. */
  tradePolls: number;
  budgetUsed: number;
  tooMany: number;
  changesPerSec: number;
  /** Listing pages of the busiest events the sweeps read (sortBy=volume24hr), in `listings` too. */
  hotListings: number;
  /** plan's predicted Fv and F (bookInformation) from the database at the window's end. */
  predictedFv: number;
  predictedF: number;
  /** Fv of the same allocation with the world's true rates (G(λ, f) of each market, weighted by λ). */
  allocatedFvTrue: number;
  /** The same with each market's fetches spaced as unevenly as plan's fitted interval shape says. */
  allocatedShapedFvTrue: number;
  /** Fv of each market's fetches in the window (its count over the window) with the true rates, as if evenly spaced. */
  realizedFvTrue: number;
  /** Fv expected at the fetches' actual times with the true rates: a Poisson book is fresh e^(−λ·age) after a fetch. */
  timedFvTrue: number;
  /** The interval shape `plan` fitted (changeRate.ts's intervalShape; Infinity: evenly spaced). */
  intervalShape: number;
  /** The mean lag of a signalled fetch behind its signal `plan` took (bookInformation.ts's signalLagSec), s. */
  signalLagSec: number;
  /** C's upper bound for any policy with the same book fetches: perfectly timed, each captures one state that held in the window. */
  oracleC: number;
  /** Sum of the estimated change rates over the true ones, all markets and the busiest tenth. */
  rateRatio: number;
  topRateRatio: number;
}

function parseArgs(argv: readonly string[]) {
  const out = {
    rpms: [60, 600, 3000],
    runs: 2,
    firstRun: 1,
    markets: undefined as number | undefined,
    warmSec: undefined as number | undefined,
    hotEvents: HOT_EVENTS_DEFAULT,
    /** Seconds between sweeps instead of the profile's (60: the service's default, a sweep a minute). */
    sweepEverySec: undefined as number | undefined,
    defaultSchedules: false,
    serverUrl: DEFAULT_SERVER_URL,
    once: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--rpm') out.rpms = (argv[++i] ?? '').split(',').map(Number);
    else if (a === '--runs') out.runs = Number(argv[++i]);
    else if (a === '--first-run') out.firstRun = Number(argv[++i]);
    else if (a === '--markets') out.markets = Number(argv[++i]);
    else if (a === '--warm') out.warmSec = Number(argv[++i]);
    else if (a === '--hot-events') out.hotEvents = Number(argv[++i]);
    else if (a === '--sweep-every') out.sweepEverySec = Number(argv[++i]);
    else if (a === '--default-schedules') out.defaultSchedules = true;
    else if (a === '--db') out.serverUrl = argv[++i] ?? '';
    else if (a === '--once') out.once = true;
    else throw new Error(`unknown argument ${a}; see the header of bench/capture.ts`);
  }
  for (const rpm of out.rpms) if (!PROFILES[rpm]) throw new Error(`--rpm takes ${Object.keys(PROFILES).join(', ')}; got ${rpm}`);
  if (!Number.isInteger(out.firstRun) || out.firstRun < 1) throw new Error(`--first-run takes a whole number from 1; got ${out.firstRun}`);
  if (!Number.isInteger(out.hotEvents) || out.hotEvents < 0) throw new Error(`--hot-events takes a whole number; got ${out.hotEvents}`);
  if (out.sweepEverySec !== undefined && ![5, 10, 15, 20, 30, 60].includes(out.sweepEverySec))
    throw new Error(`--sweep-every takes 5, 10, 15, 20, 30 or 60 (seconds dividing a minute); got ${out.sweepEverySec}`);
  if (out.defaultSchedules && out.sweepEverySec !== undefined)
    throw new Error('--default-schedules sets the sweep a minute: leave out --sweep-every');
  return out;
}

/** The stored content key of a book body as served: the pipeline's own parse and content hash. */
function keyOf(marketId: string, bookJson: string): string {
  const checked = parseOrderBook(JSON.parse(bookJson) as unknown, { marketId });
  return checked.ok ? contentHash(checked.value) : `rejected:${bookJson}`;
}

/** The service's schedules with no setting of them, as `serve` reads its environment. */
function defaultSchedules(): Record<JobName, string> {
  const config = parseConfig({ PREDICTION_API_KEY: API_KEY });
  return {
    crawl: config.crawlSchedule,
    details: config.detailsSchedule,
    trades: config.tradesSchedule,
    orderbooks: config.orderBookSchedule,
  };
}

async function captureRun(rpm: number, run: number, options: ReturnType<typeof parseArgs>): Promise<RunResult> {
  const every = options.defaultSchedules ? 60 : options.sweepEverySec;
  const base = PROFILES[rpm]!;
  // A sweep a minute needs a longer window to hold a few of them; the default schedules' first
  // crawl runs at start (overdue), and the rates need a few sweeps after it.
  const profile = options.defaultSchedules
    ? { ...base, schedules: defaultSchedules(), warmSec: Math.max(base.warmSec, 120), measureSec: Math.max(base.measureSec, 180) }
    : every === undefined
      ? base
      : {
          ...base,
          schedules: { ...base.schedules, orderbooks: every === 60 ? '0 * * * * *' : `*/${every} * * * * *` },
          measureSec: Math.max(base.measureSec, 3 * every),
        };
  const sweepEverySec = every ?? PERIOD_SEC[rpm]!;
  const warmSec = options.warmSec ?? profile.warmSec;
  // Named after the process too: a second capture at once must not drop this one's database.
  const db = await createScratch(options.serverUrl, `bench_capture_${rpm}_${run}_${process.pid}`);
  const sim = await startSimulator({
    seed: 100 + run,
    markets: options.markets ?? profile.markets,
    clock: 'realtime',
    stepEveryMs: 100,
    newEventsPerDay: 0,
    apiKey: API_KEY,
    rateLimit: { requests: rpm, windowMs: 60_000 },
    maxPageSize: 100,
    activity: { busiestPerSec: 0.5, zipfExponent: 1, topShare: 0.5, clockMs: Date.now },
  });
  const client = createPredictionClient({ baseUrl: sim.url, apiKey: API_KEY, rateLimit: { requests: rpm, windowMs: 60_000 } });
  const service = await startService({
    databaseUrl: db.url,
    client,
    clientFor: (job) => client.withPriority(JOB_PRIORITY[job]),
    metrics: createMetrics({ processMetrics: false }),
    logger: createLogger({ level: 'silent' }),
    schedules: profile.schedules,
    providers: KNOWN_PROVIDERS,
    categories: ['all'],
    maxRejectedPercent: 5,
    orderBookMaxAgeSec: 3600,
    ...(options.once ? {} : { rateLimitRpm: rpm }),
    hotEvents: options.hotEvents,
    // As `serve` starts it.
    runOverdueAtStart: true,
    ops: { host: '127.0.0.1', port: 0 },
  });
  const startMs = Date.now();
  const fromMs = startMs + warmSec * 1000;
  const toMs = fromMs + profile.measureSec * 1000;
  try {
    await new Promise((resolve) => setTimeout(resolve, toMs - Date.now() + 2_000));
  } finally {
    await service.stop();
    await client.close();
  }
  const activity = sim.world.activity!;
  const allRequests = [...sim.requests];
  const requests = allRequests.filter((r) => r.timeMs >= fromMs && r.timeMs < toMs);
  await sim.stop();

  // The truth: every market open through the window, its states as content keys.
  const truth = new Map<string, TrueBook>();
  const keyCache = new Map<string, string>();
  for (const e of activity.truth.entries()) {
    const m = sim.world.market(e.marketId)!;
    if (m.status !== 'open') continue;
    let book = truth.get(e.marketId);
    if (!book) truth.set(e.marketId, (book = { rate: activity.rateOf(e.marketId)!, atMs: [], keys: [], traded: [] }));
    const cacheKey = `${e.marketId}|${e.bookJson}`;
    const key = keyCache.get(cacheKey) ?? keyOf(e.marketId, e.bookJson);
    keyCache.set(cacheKey, key);
    if (book.keys.at(-1) === key) continue;
    book.atMs.push(e.atMs);
    book.keys.push(key);
    book.traded.push(e.movedTop);
  }
  const windowSec = profile.measureSec;
  const bookRequests = requests.filter((r) => r.path.includes('/orderbook/') && r.status === 200).length;
  // plan's prediction from what the database holds at the end (its estimated rates), at the measured
  // book rate; and the same allocation, and the fetches each market got, with the true rates.
  const fetchesPerSec = bookRequests / windowSec;
  const fetchedInWindow = new Map<string, number>();
  // Every answered book fetch's time by market, the window's and before, for the expected freshness at those times.
  const fetchTimes = new Map<string, number[]>();
  for (const r of allRequests) {
    if (r.status !== 200 || !r.path.includes('/orderbook/') || r.timeMs >= toMs) continue;
    const id = decodeURIComponent(r.path.slice(r.path.lastIndexOf('/') + 1));
    fetchTimes.set(id, [...(fetchTimes.get(id) ?? []), r.timeMs]);
    if (r.timeMs >= fromMs) fetchedInWindow.set(id, (fetchedInWindow.get(id) ?? 0) + 1);
  }
  const predicted = await withDb(db, async (sql) => {
    const candidates = await selectBookCandidates(sql, KNOWN_PROVIDERS, new Date(toMs));
    const options = {
      nowMs: toMs,
      sweepEverySec,
      fetchesPerSec,
      maxAgeSec: 3600,
      booksPerBatch: sweepBatch(DEFAULT_BATCH_SIZE, fetchesPerSec),
    };
    const info = bookInformation(candidates, options);
    const { ratesPerSec, allocation } = allocateBooks(candidates, {
      ...options,
      horizonSec: firstPlanSec(options.sweepEverySec, options.fetchesPerSec),
      batchSize: options.booksPerBatch,
    });
    // The rate of content changes (what a fetch can see) over the service's run, the span of its evidence.
    const contentRate = (id: string) => {
      const book = truth.get(id);
      return book === undefined ? 0 : book.atMs.filter((t) => t > startMs && t <= toMs).length / ((toMs - startMs) / 1000);
    };
    const trueRates = Float64Array.from(candidates, (c) => contentRate(c.marketId));
    const realized = Float64Array.from(candidates, (c) => (fetchedInWindow.get(c.marketId) ?? 0) / windowSec);
    const busiest = [...trueRates.keys()].sort((a, b) => trueRates[b]! - trueRates[a]!).slice(0, Math.ceil(trueRates.length / 10));
    const sum = (xs: Iterable<number>) => [...xs].reduce((a, b) => a + b, 0);
    return {
      predictedFv: info.predictedFv,
      predictedF: info.predictedF,
      intervalShape: info.intervalShape,
      signalLagSec: info.signalLagSec,
      allocatedFvTrue: weightedFreshness(trueRates, allocation.fetchesPerSec),
      allocatedShapedFvTrue: weightedFreshness(trueRates, allocation.fetchesPerSec, info.intervalShape),
      realizedFvTrue: weightedFreshness(trueRates, realized),
      timedFvTrue: timedFreshness(
        candidates.map((c) => [contentRate(c.marketId), fetchTimes.get(c.marketId) ?? []] as const),
        fromMs,
        toMs,
      ),
      rateRatio: sum(ratesPerSec) / sum(trueRates),
      topRateRatio: sum(busiest.map((i) => ratesPerSec[i]!)) / sum(busiest.map((i) => trueRates[i]!)),
    };
  });
  const stored = await withDb(db, async (sql) => {
    const rows = await sql<{ market_id: string; observed_ms: number; last_ms: number; content_hash: string }[]>`
      select market_id, (extract(epoch from observed_at) * 1000)::float8 as observed_ms,
        (extract(epoch from last_observed_at) * 1000)::float8 as last_ms, content_hash
      from prediction.orderbook_snapshots order by market_id, observed_at`;
    const byMarket = new Map<string, StoredBook[]>();
    for (const r of rows) {
      const list = byMarket.get(r.market_id) ?? [];
      list.push({ observedMs: r.observed_ms, lastObservedMs: r.last_ms, key: r.content_hash });
      byMarket.set(r.market_id, list);
    }
    return byMarket;
  });
  await dropScratch(options.serverUrl, db);

  const isBook = (path: string) => path.includes('/orderbook/');
  // Listing pages and the event markets the crawl pages; the trade feed's polls; the rest are details.
  const isTradePoll = (path: string) => /\/trades$/.test(path);
  const isListing = (path: string) => /\/events$/.test(path) || /\/events\/[^/]+\/markets$/.test(path);
  const bookFetches = bookRequests;
  const window = { fromMs, toMs, stepMs: 500 };
  const changes = [...truth.values()].reduce((n, b) => n + b.atMs.filter((t) => t >= fromMs && t < toMs).length, 0);
  // States that held a while in the window (two changes in one step of the world leave the first none).
  let heldStates = 0;
  for (const b of truth.values())
    for (let s = 0; s < b.atMs.length; s++) {
      const from = Math.max(b.atMs[s]!, fromMs);
      const to = Math.min(b.atMs[s + 1] ?? Infinity, toMs);
      if (to > from) heldStates += 1;
    }
  const best = measurePeriodic(truth, bestForFv(truth, bookFetches, windowSec), window, run);
  const bestCInWindow = measurePeriodic(truth, bestForC(truth, bookFetches, windowSec), window, run);
  return {
    rpm,
    service: measureStored(truth, stored, window),
    roundRobin: measurePeriodic(truth, roundRobin(truth, bookFetches, windowSec), window, run),
    best,
    bestC: best.C >= bestCInWindow.C ? best : bestCInWindow,
    bestCInWindow,
    bookFetches,
    listings: requests.filter((r) => isListing(r.path)).length,
    hotListings: requests.filter((r) => isListing(r.path) && r.query.includes('sortBy=volume24hr')).length,
    details: requests.filter((r) => !isBook(r.path) && !isListing(r.path) && !isTradePoll(r.path)).length,
    tradePolls: requests.filter((r) => isTradePoll(r.path)).length,
    budgetUsed: requests.filter((r) => r.accepted).length / ((rpm * windowSec) / 60),
    tooMany: requests.filter((r) => r.status === 429).length,
    changesPerSec: changes / windowSec,
    oracleC: Math.min(1, bookFetches / heldStates),
    ...predicted,
  };
}

/** Σ λ·(expected fresh share over the window given the fetch times) / Σ λ. */
function timedFreshness(markets: readonly (readonly [number, readonly number[]])[], fromMs: number, toMs: number): number {
  let num = 0;
  let den = 0;
  for (const [rate, times] of markets) {
    if (rate <= 0) continue;
    // ∫ e^(−λ(t − s)) dt over each stretch from a fetch (or the window's start, never fetched: 0) to the next.
    let fresh = 0;
    let last = -Infinity;
    for (const t of times) if (t < fromMs) last = t;
    const inWindow = times.filter((t) => t >= fromMs && t < toMs);
    const bounds = [fromMs, ...inWindow, toMs];
    for (let k = 0; k + 1 < bounds.length; k++) {
      const from = bounds[k]!;
      const to = bounds[k + 1]!;
      const since = k === 0 ? last : from;
      if (!Number.isFinite(since)) continue;
      const l = rate / 1000;
      fresh += (Math.exp(-l * (from - since)) - Math.exp(-l * (to - since))) / l;
    }
    num += rate * (fresh / (toMs - fromMs));
    den += rate;
  }
  return den === 0 ? 1 : num / den;
}

const f3 = (x: number) => x.toFixed(3);
const spread = (xs: readonly number[]) => (xs.length < 2 ? f3(xs[0]!) : `${f3(Math.min(...xs))}–${f3(Math.max(...xs))}`);

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  console.log(
    `# information per request — ${new Date().toISOString()}, Node ${process.version}, ${options.markets ?? "the profile's"} markets, ${options.runs} runs a rate, ${options.hotEvents} hot events${options.defaultSchedules ? ", the service's default schedules" : options.sweepEverySec === undefined ? '' : `, a sweep every ${options.sweepEverySec} s`}${options.once ? ', --once' : ''}; load ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
  );
  const results: RunResult[] = [];
  for (const rpm of options.rpms) {
    for (let run = options.firstRun; run < options.firstRun + options.runs; run++) {
      log(`capture at ${rpm} rpm, run ${run}…`);
      const r = await captureRun(rpm, run, options);
      results.push(r);
      log(
        `  F ${f3(r.service.F)} Fv ${f3(r.service.Fv)} C ${f3(r.service.C)} (traded ${f3(r.service.CTraded)}, not ${f3(r.service.CUntraded)}), best blind ${f3(r.bestC.C)} (${f3(r.bestC.CTraded)}, ${f3(r.bestC.CUntraded)}), oracle ${f3(r.oracleC)}; in window ${f3(r.service.CInWindow)}, best ${f3(r.bestCInWindow.CInWindow)}; Fv/best ${f3(r.service.Fv / r.best.Fv)}; plan Fv ${f3(r.predictedFv)} F ${f3(r.predictedF)} (shape ${r.intervalShape.toFixed(2)}, signal lag ${r.signalLagSec.toFixed(1)} s, alloc λ ${f3(r.allocatedFvTrue)}, alloc λ shaped ${f3(r.allocatedShapedFvTrue)}, fetched λ ${f3(r.realizedFvTrue)}, timed λ ${f3(r.timedFvTrue)}, λ̂/λ ${f3(r.rateRatio)}, top ${f3(r.topRateRatio)}); books ${r.bookFetches}, hot ${r.hotListings}, budget ${f3(r.budgetUsed)}, 429 ${r.tooMany}; load ${loadavg()[0]!.toFixed(2)}`,
      );
    }
  }
  section('per run');
  printTable(
    'measured against the truth, and the references on the same change log with the same book fetches',
    [
      'rpm',
      'F',
      'F rr',
      'Fv',
      'Fv rr',
      'Fv best',
      'Fv/best',
      'F/F rr',
      'C',
      'C best',
      'C oracle',
      'C in window',
      'C in window best',
      'C traded',
      'C traded best',
      'plan Fv',
      'plan F',
      'shape',
      'Fv alloc λ',
      'Fv alloc λ shaped',
      'Fv fetched λ',
      'Fv timed λ',
      'λ̂/λ',
      'λ̂/λ top',
      'books',
      'listings',
      'hot',
      'details',
      'trade polls',
      'budget',
      '429',
      'changes/s',
    ],
    results.map((r) => [
      r.rpm,
      f3(r.service.F),
      f3(r.roundRobin.F),
      f3(r.service.Fv),
      f3(r.roundRobin.Fv),
      f3(r.best.Fv),
      f3(r.service.Fv / r.best.Fv),
      f3(r.service.F / r.roundRobin.F),
      f3(r.service.C),
      f3(r.bestC.C),
      f3(r.oracleC),
      f3(r.service.CInWindow),
      f3(r.bestCInWindow.CInWindow),
      f3(r.service.CTraded),
      f3(r.bestC.CTraded),
      f3(r.predictedFv),
      f3(r.predictedF),
      r.intervalShape.toFixed(2),
      f3(r.allocatedFvTrue),
      f3(r.allocatedShapedFvTrue),
      f3(r.realizedFvTrue),
      f3(r.timedFvTrue),
      f3(r.rateRatio),
      f3(r.topRateRatio),
      r.bookFetches,
      r.listings,
      r.hotListings,
      r.details,
      r.tradePolls,
      f3(r.budgetUsed),
      r.tooMany,
      r.changesPerSec.toFixed(2),
    ]),
  );
  section('ratios over runs (min–max)');
  printTable(
    'per rate',
    [
      'rpm',
      'Fv / best',
      'F / round-robin',
      'C',
      'C best blind',
      'C oracle',
      'C in window',
      'its best',
      'plan Fv / measured',
      'budget used',
      '429',
    ],
    options.rpms.map((rpm) => {
      const rs = results.filter((r) => r.rpm === rpm);
      return [
        rpm,
        spread(rs.map((r) => r.service.Fv / r.best.Fv)),
        spread(rs.map((r) => r.service.F / r.roundRobin.F)),
        spread(rs.map((r) => r.service.C)),
        spread(rs.map((r) => r.bestC.C)),
        spread(rs.map((r) => r.oracleC)),
        spread(rs.map((r) => r.service.CInWindow)),
        spread(rs.map((r) => r.bestCInWindow.CInWindow)),
        spread(rs.map((r) => r.predictedFv / r.service.Fv)),
        spread(rs.map((r) => r.budgetUsed)),
        rs.reduce((n, r) => n + r.tooMany, 0),
      ];
    }),
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
