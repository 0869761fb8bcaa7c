/**
 * CPU time of ordering one sweep over 100,000 open markets (sync/bookSchedule.ts's scheduleBooks):
 * rate estimates, the allocation's bisection and the layout of the sweep's fetches. Run on demand:
 *
 *   npx tsx bench/bookOrder.ts [--markets 100000] [--rpm 9000] [--repeat 7]
 *
 * Markets have Zipf volumes, fetch evidence at uneven intervals (changed ones longer than unchanged
 * ones, as a sweep's are: changeRate.ts) and last fetches spread over the max age; a tenth of them
 * have moved listed prices, a fifth fetches that signals brought forward. Reports the CPU time (user
 * + system) of each call, median and range.
 */
import { mulberry32 } from '../src/simulator/world/prng.js';
import { type BookCandidate, scheduleBooks } from '../src/sync/bookSchedule.js';
import { printTable } from './support/report.js';

function parseArgs(argv: readonly string[]) {
  const out = { markets: 100_000, rpm: 9_000, repeat: 7 };
  for (let i = 0; i < argv.length; i++) {
    const value = Number(argv[i + 1]);
    if (argv[i] === '--markets') out.markets = value;
    else if (argv[i] === '--rpm') out.rpm = value;
    else if (argv[i] === '--repeat') out.repeat = value;
    else throw new Error(`unknown argument ${argv[i]}; see the header of bench/bookOrder.ts`);
    i++;
  }
  return out;
}

function candidates(n: number, nowMs: number): BookCandidate[] {
  const random = mulberry32(42);
  return Array.from({ length: n }, (_, i) => {
    const rate = 0.5 / (1 + Math.floor(random() * n));
    const fetches = Math.floor(random() * 40);
    const changed = Math.round(fetches * (1 - Math.exp(-rate * 60)));
    // A fifth have fetches a fill or a moved listing brought forward, most finding a change.
    const signalled = i % 5 === 2 ? 1 + Math.floor(random() * 10) : 0;
    return {
      marketId: `M-${i}`,
      lastFetchedMs: random() < 0.01 ? null : nowMs - random() * 3_600_000,
      listedMovedAtMs: random() < 0.1 ? nowMs - 5_000 : null,
      // A tenth traded since their last fetch, some recently enough to be fetched first.
      lastTradedMs: i % 10 === 5 ? nowMs - (i % 7) * 10_000 : null,
      volumePerSec: rate * 80,
      closeTimeMs: nowMs + random() * 30 * 86_400_000,
      changedFetches: changed,
      unchangedFetches: fetches - changed,
      // Uneven intervals, as a sweep's are: a long one more often finds a change.
      changedIntervalSec: changed * 75,
      // Spread as a gamma law of shape 2 (E[Δ²] = m²·(1 + 1/2)): every market with two changed fetches fits it.
      changedIntervalSqSec: changed * 75 * 75 * 1.5,
      unchangedIntervalSec: (fetches - changed) * 45,
      signalledFetches: signalled,
      signalledChangedFetches: Math.ceil(0.8 * signalled),
      signalledIntervalSec: signalled * 30,
      signalledLagSec: signalled * 8,
      tradesPerSec: 0,
    };
  });
}

const { markets, rpm, repeat } = parseArgs(process.argv.slice(2));
const nowMs = Date.now();
const input = candidates(markets, nowMs);
const cpuMs: number[] = [];
let listed = 0;
for (let r = 0; r < repeat; r++) {
  const before = process.cpuUsage();
  const schedule = scheduleBooks(input, { nowMs, horizonSec: 58, fetchesPerSec: rpm / 60, maxAgeSec: 3600, batchSize: 16 });
  const used = process.cpuUsage(before);
  cpuMs.push((used.user + used.system) / 1000);
  listed = schedule.order.length;
}
const sorted = [...cpuMs].sort((a, b) => a - b);
printTable(
  `ordering a sweep: ${markets.toLocaleString('en-US')} open markets at ${rpm.toLocaleString('en-US')} requests/min (a 58 s sweep, ${listed.toLocaleString('en-US')} fetches listed)`,
  ['calls', 'CPU median (ms)', 'min', 'max', 'first (cold)'],
  [[repeat, sorted[Math.floor(repeat / 2)]!.toFixed(1), sorted[0]!.toFixed(1), sorted.at(-1)!.toFixed(1), cpuMs[0]!.toFixed(1)]],
);
