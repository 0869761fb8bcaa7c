/**
 * Draws docs/allocation.svg: book fetches a second each market gets against its change rate, for
 * the bench's reference world (600 markets, Zipf rates, the busiest every 2 s) at 600 requests a
 * minute (9.4 book fetches a second, as bench/capture.ts measured): the sweep's allocation
 * (allocateBooks, with each market's evidence at its true rate), round-robin, and the best
 * allocation for Fv with known rates. It also prints, for that world and the 60-market one of the
 * capture's 60-rpm profile (0.87 book fetches a second), F and Fv of the sweep's division against
 * Fv's alone with the floors raised: what F costs in Fv each way, the rates known and the fetches
 * evenly spaced. Run: npx tsx bench/allocationChart.ts
 */
import { writeFileSync } from 'node:fs';

import { allocateBooks, type BookCandidate, EVEN_FLOOR_SHARE, F_WEIGHT } from '../src/sync/bookSchedule.js';
import { allocateFetchRates, freshShare, weightedFreshness } from '../src/sync/fetchAllocation.js';

const N = 600;
const FETCHES_PER_SEC = 9.4;
const rates = Float64Array.from({ length: N }, (_, i) => 0.5 / (i + 1));
const nowMs = Date.UTC(2026, 10, 28);
// A thousand fetches 10 s apart, each changed with its expected frequency: the estimate is the true rate.
const candidates: BookCandidate[] = Array.from(rates, (rate, i) => {
  const changed = 1000 * (1 - Math.exp(-rate * 10));
  return {
    marketId: `M-${i}`,
    lastFetchedMs: nowMs,
    listedMovedAtMs: null,
    lastTradedMs: null,
    volumePerSec: rate,
    closeTimeMs: null,
    changedFetches: changed,
    unchangedFetches: 1000 - changed,
    changedIntervalSec: changed * 10,
    changedIntervalSqSec: changed * 100,
    unchangedIntervalSec: (1000 - changed) * 10,
    signalledFetches: 0,
    signalledChangedFetches: 0,
    signalledIntervalSec: 0,
    signalledLagSec: 0,
    tradesPerSec: 0,
  };
});
const sweep = allocateBooks(candidates, { nowMs, horizonSec: 9, fetchesPerSec: FETCHES_PER_SEC, maxAgeSec: 3600, batchSize: 2 });
const best = allocateFetchRates(rates, new Float64Array(N), Infinity, FETCHES_PER_SEC).fetchesPerSec;
const even = new Float64Array(N).fill(FETCHES_PER_SEC / N);

const [W, H, L, B] = [640, 400, 60, 50];
const x = (rate: number) => L + ((Math.log10(rate) + 4) / 4) * (W - L - 20);
const y = (f: number) => H - B - ((Math.log10(f) + 4) / 5) * (H - B - 20);
const line = (fs: Float64Array, colour: string) =>
  `<polyline fill="none" stroke="${colour}" stroke-width="2" points="${Array.from(rates, (r, i) => `${x(r).toFixed(1)},${y(fs[i]!).toFixed(1)}`).join(' ')}"/>`;
const ticks = [
  ...[-4, -3, -2, -1, 0].map(
    (e) =>
      `<text x="${x(10 ** e)}" y="${H - B + 18}" text-anchor="middle">1e${e}</text><line x1="${x(10 ** e)}" x2="${x(10 ** e)}" y1="20" y2="${H - B}" stroke="#eee"/>`,
  ),
  ...[-4, -3, -2, -1, 0, 1].map(
    (e) =>
      `<text x="${L - 6}" y="${y(10 ** e) + 4}" text-anchor="end">1e${e}</text><line x1="${L}" x2="${W - 20}" y1="${y(10 ** e)}" y2="${y(10 ** e)}" stroke="#eee"/>`,
  ),
];
const fv = (fs: Float64Array) => weightedFreshness(rates, fs).toFixed(3);
const f = (fs: Float64Array) => freshness(rates, fs).toFixed(3);
const legend = [
  ['#d62728', `the sweep (allocateBooks): Fv ${fv(sweep.allocation.fetchesPerSec)}, F ${f(sweep.allocation.fetchesPerSec)}`],
  ['#1f77b4', `best for Fv, rates known: Fv ${fv(best)}, F ${f(best)}`],
  ['#7f7f7f', `round-robin: Fv ${fv(even)}, F ${f(even)}`],
].map(
  ([colour, label], i) =>
    `<rect x="${L + 12}" y="${28 + i * 18}" width="14" height="4" fill="${colour}"/><text x="${L + 32}" y="${34 + i * 18}">${label}</text>`,
);
const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" font-family="sans-serif" font-size="11">
<rect width="${W}" height="${H}" fill="white"/>
${ticks.join('\n')}
${line(even, '#7f7f7f')}
${line(best, '#1f77b4')}
${line(sweep.allocation.fetchesPerSec, '#d62728')}
${legend.join('\n')}
<text x="${(W + L) / 2}" y="${H - 12}" text-anchor="middle">change rate of the market's book (per second, log)</text>
<text x="14" y="${(H - B) / 2}" text-anchor="middle" transform="rotate(-90 14 ${(H - B) / 2})">book fetches per second (log)</text>
</svg>
`;
writeFileSync(new URL('../docs/allocation.svg', import.meta.url), svg);
console.log(
  `docs/allocation.svg: 600 markets, ${FETCHES_PER_SEC} fetches/s; Fv sweep ${fv(sweep.allocation.fetchesPerSec)}, best ${fv(best)}, round-robin ${fv(even)}`,
);

/** F: every market's fresh share alike. */
function freshness(rs: Float64Array, fs: Float64Array): number {
  let sum = 0;
  for (let i = 0; i < rs.length; i++) sum += freshShare(rs[i]!, fs[i]!);
  return sum / rs.length;
}

// What F costs in Fv: the F weight against floors raised, for each world.
for (const [n, perSec] of [
  [60, 0.87],
  [N, FETCHES_PER_SEC],
] as const) {
  const rs = Float64Array.from({ length: n }, (_, i) => 0.5 / (i + 1));
  const floors = (share: number) => new Float64Array(n).fill((share * perSec) / n);
  const meanRate = rs.reduce((a, b) => a + b, 0) / n;
  const rows: [string, Float64Array][] = [
    [
      `Fv alone, floors ${EVEN_FLOOR_SHARE} of an even share`,
      allocateFetchRates(rs, floors(EVEN_FLOOR_SHARE), Infinity, perSec).fetchesPerSec,
    ],
    ['Fv alone, floors 0.8', allocateFetchRates(rs, floors(0.8), Infinity, perSec).fetchesPerSec],
    [
      `F weighed ${F_WEIGHT}, floors ${EVEN_FLOOR_SHARE}`,
      allocateFetchRates(rs, floors(EVEN_FLOOR_SHARE), Infinity, perSec, F_WEIGHT * meanRate).fetchesPerSec,
    ],
    ['round-robin', floors(1)],
  ];
  console.log(`${n} markets, ${perSec} fetches/s:`);
  for (const [label, fs] of rows) console.log(`  ${label}: F ${freshness(rs, fs).toFixed(4)}, Fv ${weightedFreshness(rs, fs).toFixed(4)}`);
}
