/**
 * A market's order-book change rate, estimated from its own fetches (prediction.book_fetches).
 * Books are taken to change as a Poisson process of rate λ: a fetch an interval Δ after the one
 * before finds a change with probability 1 − e^(−λΔ). The table keeps each market's counts and
 * summed intervals, not each interval, and a market's intervals are uneven (a sweep bunches its
 * fetches, a listed move brings one forward): by Jensen's inequality, an estimate that takes every
 * interval as the mean one falls below the rate (bench/capture.ts measured the busiest tenth of
 * its markets at 0.8× their rate). So the intervals are taken as gamma-distributed around each
 * market's mean m with one shape k for all markets (intervalShape, fitted on the evidence of all
 * of them; k = ∞ is evenly spaced). A fetch then finds the book unchanged with probability
 * q = (1 + λm/k)^(−k), and the share of unchanged fetches gives λ = (k/m)(q^(−1/k) − 1)
 * (−ln(q)/m when evenly spaced). A prior rate λ₀ enters as PRIOR_FETCHES pseudo-fetches at the
 * market's own mean interval, unchanged in the share λ₀ gives, so that it weighs as much as a
 * fetch or two of the market's own, whatever λ₀: as pseudo-fetches at interval 1/λ₀, a prior far
 * below the rate weighed as minutes of unchanged fetches and held a busy market's estimate down.
 *
 * A fetch that a change signal brought forward (a listed move, a fill in the trade feed) finds a
 * change by construction: counted as a sample at its interval, it raised the rates
 * (bench/capture.ts at 60 requests a minute, where such fetches are many: 1.8× the true rates). Nor
 * can it simply be left out: the blind intervals left are those no signal cut short, which see only
 * the changes no signal tells. So a book's changes are taken as two Poisson processes: those a
 * signal tells, at a rate σ counted directly (signalled fetches that found a change over all the
 * time fetched), and the others, at a rate estimated as above from the blind fetches alone (given
 * that no signal came, the others still come at their own rate). The book's rate is their sum.
 */

/** What a market's fetches found (prediction.book_fetches), and its fills in the trade feed. */
export interface FetchEvidence {
  /** Blind fetches (those no change signal brought forward) that found a change, and that did not. */
  changedFetches: number;
  unchangedFetches: number;
  changedIntervalSec: number;
  unchangedIntervalSec: number;
  /** Fetches a change signal brought forward, those of them that found a change, and the summed intervals of all of them. */
  signalledFetches: number;
  signalledChangedFetches: number;
  signalledIntervalSec: number;
  /** Sum of the seconds from each signalled fetch's signal to its answer (bookInformation.ts's signal lag). */
  signalledLagSec: number;
  /** Fills a second in the trade feed (sql/targets/selectBookCandidates.ts), 0 when none was seen: each fill changes the book. */
  tradesPerSec: number;
}

/** Seconds the market's fetches after its first spanned, blind and signalled. Pure. */
function exposedSec(e: FetchEvidence): number {
  return e.changedIntervalSec + e.unchangedIntervalSec + e.signalledIntervalSec;
}

/** Rate σ of the changes a signal told (signalled fetches that found one over all the time fetched), per second. Pure. */
export function signalledRate(e: FetchEvidence): number {
  const sec = exposedSec(e);
  return sec > 0 ? e.signalledChangedFetches / sec : 0;
}

/** Fetches a signal brought forward a second, over all the time fetched. Pure. */
export function signalledFetchRate(e: FetchEvidence): number {
  const sec = exposedSec(e);
  return sec > 0 ? e.signalledFetches / sec : 0;
}

/** Pseudo-fetches of the prior: 1/(1 − e^(−1)), one changed and e^(−1)/(1 − e^(−1)) unchanged at interval 1/λ₀, as the prior always weighed. */
const PRIOR_FETCHES = 1 / -Math.expm1(-1);

/** Least interval shape fitted: below it the gamma law is a poor picture of any sweep's intervals. */
const LEAST_SHAPE = 0.25;

/** Probability that a fetch at mean interval m finds no change: (1 + λm/k)^(−k), e^(−λm) when k = ∞. Pure. */
export function unchangedShare(ratePerSec: number, meanIntervalSec: number, shape: number): number {
  const x = ratePerSec * meanIntervalSec;
  return Number.isFinite(shape) ? Math.exp(-shape * Math.log1p(x / shape)) : Math.exp(-x);
}

/** The rate at which fetches at mean interval m find no change a share q of the time (inverse of unchangedShare). */
function rateOfUnchangedShare(q: number, meanIntervalSec: number, shape: number): number {
  return Number.isFinite(shape) ? (shape * Math.expm1(-Math.log(q) / shape)) / meanIntervalSec : -Math.log(q) / meanIntervalSec;
}

/**
 * Least share of the prior `estimateChangeRate` keeps for the changes no signal tells when the
 * signalled rate alone exceeds the prior: the blind rate's prior must be positive, and its blind
 * fetches, not the prior, then set it.
 */
const LEAST_BLIND_PRIOR_SHARE = 0.01;

/**
 * The change rate (per second) the evidence, the prior `priorPerSec` (> 0) and the interval shape
 * give: the signalled rate plus the rate of the other changes, estimated from the blind fetches
 * under the prior less the signalled rate; at least the rate of the market's fills. Pure.
 */
export function estimateChangeRate(e: FetchEvidence, priorPerSec: number, shape = Infinity): number {
  const signalledPerSec = signalledRate(e);
  const blindPriorPerSec = Math.max(priorPerSec - signalledPerSec, LEAST_BLIND_PRIOR_SHARE * priorPerSec);
  return Math.max(e.tradesPerSec, signalledPerSec + blindRate(e, blindPriorPerSec, shape));
}

/** The rate of the changes no signal tells, from the blind fetches and the prior `priorPerSec` (> 0). Pure. */
function blindRate(e: FetchEvidence, priorPerSec: number, shape: number): number {
  const fetches = e.changedFetches + e.unchangedFetches;
  const meanSec = fetches > 0 ? (e.changedIntervalSec + e.unchangedIntervalSec) / fetches : 1 / priorPerSec;
  if (!(meanSec > 0)) return priorPerSec;
  const unchanged = e.unchangedFetches + PRIOR_FETCHES * unchangedShare(priorPerSec, meanSec, shape);
  return rateOfUnchangedShare(unchanged / (fetches + PRIOR_FETCHES), meanSec, shape);
}

/**
 * The shape k of the gamma law of the fetch intervals, common to all markets, fitted on their
 * evidence: under that law a market's unchanged fetches span U·m·(U/n)^(1/k) seconds in
 * expectation (n fetches, U unchanged, mean interval m; U·m when evenly spaced), and k is the
 * shape at which that adds up to the unchanged seconds observed over all markets. Uneven intervals
 * show as unchanged fetches shorter than the mean one, since a long interval more often finds a
 * change. Infinity (evenly spaced) when they are not shorter. Pure; a few passes over the markets.
 */
export function intervalShape(markets: readonly FetchEvidence[]): number {
  const unchangedSec = new Float64Array(markets.length);
  const lnShare = new Float64Array(markets.length);
  let terms = 0;
  let observed = 0;
  let even = 0;
  for (const e of markets) {
    const n = e.changedFetches + e.unchangedFetches;
    if (e.unchangedFetches <= 0 || n < 2) continue;
    const m = (e.changedIntervalSec + e.unchangedIntervalSec) / n;
    unchangedSec[terms] = e.unchangedFetches * m;
    lnShare[terms] = Math.log(e.unchangedFetches / n);
    terms += 1;
    observed += e.unchangedIntervalSec;
    even += e.unchangedFetches * m;
  }
  if (terms === 0 || observed >= even) return Infinity;
  // Expected unchanged seconds at 1/k = s is Σ U·m·e^(s·ln(U/n)): convex and decreasing in s.
  // Newton's method from s = 0, where that is above the observed, lands short of the root at each
  // step and rises to it: four or five passes where a bisection to the same precision took 22 (a
  // third of ordering 100,000 markets' CPU, bench/bookOrder.ts).
  let s = 0;
  for (let step = 0; step < 50; step++) {
    let sum = 0;
    let slope = 0;
    for (let i = 0; i < terms; i++) {
      const term = unchangedSec[i]! * Math.exp(s * lnShare[i]!);
      sum += term;
      slope += term * lnShare[i]!;
    }
    const next = s - (sum - observed) / slope;
    if (next >= 1 / LEAST_SHAPE) return LEAST_SHAPE;
    if (!(next > s) || next - s < 1e-7 * next) break;
    s = next;
  }
  return s <= 1e-6 ? Infinity : 1 / s;
}

/**
 * The rate a market's own evidence gives, with no prior: the signalled rate plus the rate at which
 * its blind fetches at their mean interval find no change the share they did; at least its fill
 * rate. Only for evidence with blind fetches both changed and unchanged. It calibrates the priors
 * of the others (priorRates): estimated under a prior of the changes seen per second, which is
 * below the rate whenever a fetch finds several changes as one, the calibrating markets' rates,
 * and with them every prior, came out low: the rates summed to 0.92–0.93× the true ones at 60
 * requests a minute, 0.95–1.03× read from the markets' own evidence (bench/README.md). Pure.
 */
function ownRate(e: FetchEvidence, shape: number): number {
  const fetches = e.changedFetches + e.unchangedFetches;
  const meanSec = (e.changedIntervalSec + e.unchangedIntervalSec) / fetches;
  return Math.max(e.tradesPerSec, signalledRate(e) + rateOfUnchangedShare(e.unchangedFetches / fetches, meanSec, shape));
}

/** Fetches after a first one a market needs before its own rate calibrates the prior of the others. */
export const CALIBRATION_FETCHES = 3;

/**
 * The prior of each market: its fills a second in the trade feed times one ratio of changes to
 * fills, or, for a market with no fill seen, its traded volume per second times one ratio of
 * changes to volume. Each ratio is measured over the markets with at least CALIBRATION_FETCHES
 * blind fetches of evidence, some changed and some not (their own rates, ownRate, against their
 * fills or volumes). The fills are the better measure where there are some: counted over the
 * last hour rather than since the market opened, and told for every market whatever its
 * fetches; at 60 requests a minute the busiest books' every fetch is one a fill brought forward,
 * and their rates stood on the prior alone (bench/capture.ts). A market with neither gets the
 * least rate of the others. Before any market has evidence, the volume ratio makes the markets'
 * rates add up to `fallbackTotalPerSec` (the sweep's fetch rate: no change rate is known, so every
 * fetch is expected to find one). Every prior is at least `floorPerSec`. Pure; one pass over the markets.
 */
export function priorRates(
  markets: readonly (FetchEvidence & { volumePerSec: number | null })[],
  options: { fallbackTotalPerSec: number; floorPerSec: number; shape?: number },
): Float64Array {
  let rateOfVolume = 0;
  let volumeSum = 0;
  let rateOfTrades = 0;
  let tradeSum = 0;
  let allVolume = 0;
  let minVolume = Infinity;
  for (const e of markets) {
    const v = e.volumePerSec ?? 0;
    if (v > 0) {
      allVolume += v;
      minVolume = Math.min(minVolume, v);
    }
    // Only evidence that bounds the rate both ways: a market whose every fetch found a change
    // (or none did) says only that its rate is above (below) what its fetches can tell, and at a
    // low budget the busiest books' fetches all find one; calibrated on them, the ratio, and with
    // it every prior, came out low (bench/capture.ts at 60 requests a minute).
    if (e.changedFetches + e.unchangedFetches < CALIBRATION_FETCHES || e.changedFetches === 0 || e.unchangedFetches === 0) continue;
    if (!(v > 0) && !(e.tradesPerSec > 0)) continue;
    const rate = ownRate(e, options.shape ?? Infinity);
    if (v > 0) {
      rateOfVolume += rate;
      volumeSum += v;
    }
    if (e.tradesPerSec > 0) {
      rateOfTrades += rate;
      tradeSum += e.tradesPerSec;
    }
  }
  const perVolume = volumeSum > 0 ? rateOfVolume / volumeSum : allVolume > 0 ? options.fallbackTotalPerSec / allVolume : 0;
  const perTrade = tradeSum > 0 ? rateOfTrades / tradeSum : 0;
  const least = Number.isFinite(minVolume) ? minVolume : 0;
  const priors = new Float64Array(markets.length);
  for (let i = 0; i < markets.length; i++) {
    const { volumePerSec: v, tradesPerSec } = markets[i]!;
    const prior = perTrade > 0 && tradesPerSec > 0 ? perTrade * tradesPerSec : perVolume * (v !== null && v > 0 ? v : least);
    priors[i] = Math.max(options.floorPerSec, prior);
  }
  return priors;
}
