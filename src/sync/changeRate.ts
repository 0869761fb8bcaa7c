import { gammaTwoPoints, type TwoPoints } from './gammaTwoPoints.js';

/**
 * A market's order-book change rate, estimated from its own fetches (prediction.book_fetches).
 * Books are taken to change as a Poisson process of rate λ: a fetch an interval Δ after the one
 * before finds a change with probability 1 − e^(−λΔ). The table keeps each market's counts and
 * summed intervals of the fetches that found a change and of those that did not, and the changed
 * ones' summed squares, not each interval. The unchanged ones enter the likelihood through their
 * sum alone (e^(−λ·U)); the changed ones through their mean and spread (blindRate). A market's
 * intervals are uneven (a sweep bunches its fetches, a signal brings one forward) and its
 * unchanged fetches are mostly the short ones: an estimate that took every interval as the mean
 * of all (the unchanged share q at mean interval m̄, −ln(q)/m̄) put the busiest book of
 * bench/capture.ts at 0.54× its rate at 60 requests a minute, where two fetches 2 and 3 s after
 * another had found no change (bench/README.md; one spread fitted for all markets' intervals, the
 * correction before, found them even there). The split sums give the same estimate as that one
 * for even intervals and keep the short ones short.
 *
 * A prior rate λ₀ enters as PRIOR_FETCHES pseudo-fetches at the market's own mean interval,
 * unchanged in the share λ₀ gives, so that it weighs as much as a fetch or two of the market's own,
 * whatever λ₀: as pseudo-fetches at interval 1/λ₀, a prior far below the rate weighed as minutes
 * of unchanged fetches and held a busy market's estimate down. A market whose every blind fetch
 * found a change is bounded from below only: it takes its prior, or the bound where that is
 * higher (blindRate). The priors come from one ratio of change rate to fills (or to traded
 * volume) over all markets, fitted on all their blind fetches (priorRates).
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
  /** Sum of the squares of the changed blind fetches' intervals: with their sum and count, their spread. */
  changedIntervalSqSec: number;
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

/**
 * Odds at which a market whose every blind fetch found a change takes the rate those fetches bound
 * from below: the rate at which C changes in C fetches had even chances. Such evidence only
 * bounds the rate, and it is the prior's to set above the bound.
 */
const EVEN_ODDS = 0.5;

/** Least interval shape fitted: below it the gamma law is a poor picture of any sweep's intervals. */
const LEAST_SHAPE = 0.25;

/**
 * Least share of the prior `estimateChangeRate` keeps for the changes no signal tells when the
 * signalled rate alone exceeds the prior: the blind rate's prior must be positive, and its blind
 * fetches, not the prior, then set it.
 */
const LEAST_BLIND_PRIOR_SHARE = 0.01;

/** The prior of the changes no signal tells, given the market's prior rate: what the signalled rate leaves of it. Pure. */
function blindPrior(e: FetchEvidence, priorPerSec: number): number {
  return Math.max(priorPerSec - signalledRate(e), LEAST_BLIND_PRIOR_SHARE * priorPerSec);
}

/**
 * The change rate (per second) the evidence and the prior `priorPerSec` (> 0) give: the signalled
 * rate plus the rate of the other changes, estimated from the blind fetches under the prior less
 * the signalled rate; at least the rate of the market's fills. Pure.
 */
export function estimateChangeRate(e: FetchEvidence, priorPerSec: number): number {
  return Math.max(e.tradesPerSec, signalledRate(e) + blindRate(e, blindPrior(e, priorPerSec)));
}

/**
 * The two points of a market's changed blind intervals of mean `meanSec` (gammaTwoPoints): those of
 * a gamma law with their mean and spread. Both at the mean when the spread is unknown (under two
 * changed fetches) or nil. Pure.
 */
function changedIntervals(e: FetchEvidence, meanSec: number): TwoPoints {
  const c = e.changedFetches;
  const variance = c >= 2 ? e.changedIntervalSqSec / c - meanSec * meanSec : 0;
  // Below a millionth of the squared mean the two points are the mean to six digits.
  if (!(variance > 1e-6 * meanSec * meanSec)) return gammaTwoPoints(meanSec, Infinity);
  return gammaTwoPoints(meanSec, (meanSec * meanSec) / variance);
}

/**
 * The changed fetches' part of the score at blind rate b: the derivative in b of
 * `fetches`·E[ln(1 − e^(−b·Δ))] over their intervals Δ (`intervals`), and its slope. Pure.
 */
function changedScore(fetches: number, intervals: TwoPoints, blindPerSec: number): { score: number; slope: number } {
  let score = 0;
  let slope = 0;
  // The two points in turn, without an array a call: the estimate runs for every market.
  for (let point = 0; point < 2; point++) {
    const sec = point === 0 ? intervals.shortSec : intervals.longSec;
    const share = point === 0 ? intervals.shortShare : 1 - intervals.shortShare;
    if (!(share > 0)) continue;
    // Δ/(e^(bΔ) − 1), and its derivative −Δ²·e^(bΔ)/(e^(bΔ) − 1)², written to stay finite for large bΔ.
    const em1 = Math.expm1(blindPerSec * sec);
    score += (fetches * share * sec) / em1;
    slope -= (fetches * share * sec * sec) / (em1 * -Math.expm1(-blindPerSec * sec));
  }
  return { score, slope };
}

/**
 * The blind fetches' score at blind rate b: the derivative in b of their log-likelihood,
 * C·E[ln(1 − e^(−b·Δ))] − b·U (C changed at intervals Δ, U unchanged seconds), and its slope. Pure.
 */
function blindScore(e: FetchEvidence, blindPerSec: number): { score: number; slope: number } {
  const c = e.changedFetches;
  const unchangedSec = Math.max(0, e.unchangedIntervalSec);
  if (!(c > 0 && e.changedIntervalSec > 0)) return { score: -unchangedSec, slope: 0 };
  const changed = changedScore(c, changedIntervals(e, e.changedIntervalSec / c), blindPerSec);
  return { score: changed.score - unchangedSec, slope: changed.slope };
}

/**
 * The rate of the changes no signal tells, from the blind fetches and the prior `priorPerSec`
 * (> 0): the root of blindScore with the prior's PRIOR_FETCHES pseudo-fetches added, at the
 * market's mean blind interval m̄, unchanged in the share q₀ = e^(−λ₀·m̄) the prior gives. So the
 * prior weighs as a fetch or two of the market's own, whatever λ₀: a prior far off moves a market
 * with evidence little. Without evidence, b = λ₀.
 *
 * With its changed intervals at their mean m, the root has a closed form: b = ln(1 + C′·m/U′)/m,
 * C′ = C + PRIOR_FETCHES·(1 − q₀) changed and U′ = U + PRIOR_FETCHES·q₀·m̄ unchanged seconds.
 * Where they spread, a change found soon after a fetch says more than one found late, and the
 * mean holds the rate low: C·ln(1 − e^(−b·m)) is above Σ ln(1 − e^(−b·Δ)) (0.82× for exponentially
 * spread intervals at b·m = 2, test/sync/changeRate.test.ts; the busiest tenth of bench/capture.ts's
 * books at 0.74–0.81× their rates at 60 requests a minute, bench/README.md, where the busiest
 * one's changed intervals ran from 2 to 41 s). Their spread then enters through two points
 * (changedIntervals) and Newton's steps rise from the closed form to the root: the score is convex
 * and decreasing in b, and the closed form's root lies below it. Two points match the law's first
 * moments, not its shortest intervals: for exponentially spread ones the estimate is 0.98× the
 * rate at λ·m̄ = 2 but still 0.83× at λ·m̄ = 5, where the mean alone gives 0.82× and 0.61×.
 *
 * Where every blind fetch found a change the likelihood only rises with b, and the prior's
 * pseudo-fetches, whose unchanged share e^(−λ₀·m̄) is nil for a busy book, could not hold it: in
 * a run at 60 requests a minute the root put the busiest tenth at 1.25× their rates, where their
 * priors from the fills were at 0.94× (bench/README.md). Such a market takes its prior, or, above
 * it, the rate at which its C changes in C fetches at the changed mean interval had even chances
 * (EVEN_ODDS), a lower bound on its rate (at the mean interval, the lower where they spread). Pure.
 */
function blindRate(e: FetchEvidence, priorPerSec: number): number {
  if (e.unchangedFetches === 0 && e.changedFetches > 0 && e.changedIntervalSec > 0) {
    // Every one found a change: the rate at which that is even odds, over the changed mean interval m:
    // (1 − e^(−b·m))^C = EVEN_ODDS.
    const m = e.changedIntervalSec / e.changedFetches;
    return Math.max(priorPerSec, -Math.log(-Math.expm1(Math.log(EVEN_ODDS) / e.changedFetches)) / m);
  }
  const fetches = e.changedFetches + e.unchangedFetches;
  const meanSec = fetches > 0 ? (e.changedIntervalSec + e.unchangedIntervalSec) / fetches : 1 / priorPerSec;
  if (!(meanSec > 0)) return priorPerSec;
  const q0 = Math.exp(-priorPerSec * meanSec);
  const changed = e.changedFetches + PRIOR_FETCHES * (1 - q0);
  const changedMeanSec = e.changedFetches > 0 && e.changedIntervalSec > 0 ? e.changedIntervalSec / e.changedFetches : meanSec;
  const unchangedSec = Math.max(0, e.unchangedIntervalSec) + PRIOR_FETCHES * q0 * meanSec;
  // No unchanged second, the prior's included (it is as good as certain of a change): the prior.
  if (!(unchangedSec > 0)) return priorPerSec;
  let rate = Math.log1p((changed * changedMeanSec) / unchangedSec) / changedMeanSec;
  const intervals = changedIntervals(e, changedMeanSec);
  if (intervals.shortShare === 1) return rate;
  for (let step = 0; step < 30; step++) {
    const { score, slope } = changedScore(changed, intervals, rate);
    const next = rate - (score - unchangedSec) / slope;
    if (!(next > rate)) break;
    const done = next - rate <= 1e-9 * next;
    rate = next;
    if (done) break;
  }
  return rate;
}

/**
 * The shape k of the gamma law of the fetch intervals, common to all markets, fitted on their
 * evidence: under that law a market's unchanged fetches span U·m·(U/n)^(1/k) seconds in
 * expectation (n fetches, U unchanged, mean interval m; U·m when evenly spaced), and k is the
 * shape at which that adds up to the unchanged seconds observed over all markets. Uneven intervals
 * show as unchanged fetches shorter than the mean one, since a long interval more often finds a
 * change. Infinity (evenly spaced) when they are not shorter. `plan` predicts freshness with it
 * (fetchAllocation.ts's freshShare). Pure; a few passes over the markets.
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

/** Most markets the ratios of priorRates are fitted on, a deterministic sample of the eligible: one ratio needs no more. */
const CALIBRATION_SAMPLE = 2_000;

/**
 * The ratio ρ of change rate to `measure` (a market's fills or traded volume a second) that best
 * explains the blind fetches of the markets with some of both: the maximum of the likelihood of
 * all their blind fetches (blindScore) with each market's rate ρ·x, its blind part what the
 * signalled rate leaves (as blindPrior). Every market's evidence counts, those whose fetches all
 * found a change as bounds. The ratio of the markets' own rates to their fills, the calibration
 * before, took each rate as known and needed both outcomes of each market: at 60 requests a
 * minute the few that had both were busy books whose one unchanged fetch had come seconds after
 * another, and it came out 1.4–2.0 in three runs where this fit gave 2.2–2.4, the true ratio of
 * content changes to fills 2.0–2.1 (bench/README.md). 0 when the evidence cannot tell (no
 * unchanged or no changed blind fetch). Newton's steps on ln ρ within a bracket, halving it where
 * they leave it. Pure.
 */
function fitRatio(markets: readonly FetchEvidence[], measure: Float64Array, eligible: number): number {
  if (eligible === 0) return 0;
  const stride = Math.max(1, Math.ceil(eligible / CALIBRATION_SAMPLE));
  const sample: number[] = [];
  let seen = 0;
  let changed = 0;
  let unchangedSec = 0;
  let seenPerSec = 0;
  let exposed = 0;
  let measureSum = 0;
  for (let i = 0; i < markets.length && sample.length < CALIBRATION_SAMPLE; i++) {
    const e = markets[i]!;
    if (!(measure[i]! > 0) || e.changedFetches + e.unchangedFetches === 0) continue;
    if (seen++ % stride !== 0) continue;
    sample.push(i);
    changed += e.changedFetches;
    unchangedSec += e.unchangedIntervalSec;
    const sec = exposedSec(e);
    if (sec > 0) seenPerSec += (e.changedFetches + e.signalledChangedFetches) / sec;
    exposed += sec;
    measureSum += measure[i]!;
  }
  if (changed === 0 || !(unchangedSec > 0)) return 0;
  // Score in ρ: Σ dbᵢ/dρ · scoreᵢ(bᵢ), decreasing in ρ.
  const score = (ratio: number) => {
    let sum = 0;
    let slope = 0;
    for (const i of sample) {
      const e = markets[i]!;
      const x = measure[i]!;
      const blind = blindPrior(e, ratio * x);
      // Its slope in ρ: x, or the floor's share of it where the floor holds.
      const dbdr = blind > ratio * x - signalledRate(e) ? LEAST_BLIND_PRIOR_SHARE * x : x;
      const s = blindScore(e, blind);
      sum += dbdr * s.score;
      slope += dbdr * dbdr * s.slope;
    }
    return { sum, slope };
  };
  // The changes seen a second bound the rates from below: a start (a change a market over all
  // the time fetched where none was seen), then a bracket.
  let ratio = Math.max(seenPerSec, sample.length / exposed) / measureSum;
  let lo = 0;
  let hi = Infinity;
  for (let step = 0; step < 100; step++) {
    const { sum, slope } = score(ratio);
    if (sum > 0) lo = ratio;
    else hi = ratio;
    // Newton's step on ln ρ: d/d ln ρ = ρ·slope.
    let next = slope < 0 ? ratio * Math.exp(Math.max(-2, Math.min(2, -sum / (ratio * slope)))) : NaN;
    if (!(next > lo && next < hi)) next = Number.isFinite(hi) ? (lo > 0 ? Math.sqrt(lo * hi) : hi / 4) : ratio * 4;
    if (Math.abs(next - ratio) <= 1e-6 * ratio) return next;
    ratio = next;
  }
  return ratio;
}

/**
 * The prior of each market: its fills a second in the trade feed times one ratio of changes to
 * fills, or, for a market with no fill seen, its traded volume per second times one ratio of
 * changes to volume, each fitted on the markets' blind fetches (fitRatio). The fills are the
 * better measure where there are some: counted over the last hour rather than since the market
 * opened, and told for every market whatever its fetches; at 60 requests a minute the busiest
 * books' every fetch is one a fill brought forward, and their rates stood on the prior alone
 * (bench/capture.ts). A market with neither gets the least rate of the others. Before the
 * evidence can tell a ratio, the volume ratio makes the markets' rates add up to
 * `fallbackTotalPerSec` (the sweep's fetch rate: no change rate is known, so every fetch is
 * expected to find one). Every prior is at least `floorPerSec`. Pure.
 */
export function priorRates(
  markets: readonly (FetchEvidence & { volumePerSec: number | null })[],
  options: { fallbackTotalPerSec: number; floorPerSec: number },
): Float64Array {
  const volumes = new Float64Array(markets.length);
  const trades = new Float64Array(markets.length);
  let allVolume = 0;
  let minVolume = Infinity;
  // Markets with blind evidence and each measure: fitRatio's.
  let withVolume = 0;
  let withTrades = 0;
  for (let i = 0; i < markets.length; i++) {
    const e = markets[i]!;
    const v = e.volumePerSec ?? 0;
    const blind = e.changedFetches + e.unchangedFetches > 0;
    volumes[i] = v;
    trades[i] = e.tradesPerSec;
    if (v > 0) {
      allVolume += v;
      minVolume = Math.min(minVolume, v);
      if (blind) withVolume += 1;
    }
    if (blind && e.tradesPerSec > 0) withTrades += 1;
  }
  const fittedPerVolume = fitRatio(markets, volumes, withVolume);
  const perVolume = fittedPerVolume > 0 ? fittedPerVolume : allVolume > 0 ? options.fallbackTotalPerSec / allVolume : 0;
  const perTrade = fitRatio(markets, trades, withTrades);
  const least = Number.isFinite(minVolume) ? minVolume : 0;
  const priors = new Float64Array(markets.length);
  for (let i = 0; i < markets.length; i++) {
    const v = volumes[i]!;
    const prior = perTrade > 0 && trades[i]! > 0 ? perTrade * trades[i]! : perVolume * (v > 0 ? v : least);
    priors[i] = Math.max(options.floorPerSec, prior);
  }
  return priors;
}
