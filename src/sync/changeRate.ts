/**
 * A market's order-book change rate, estimated from its own fetches (prediction.book_fetches).
 * Books are taken to change as a Poisson process of rate λ: a fetch an interval Δ after the one
 * before finds a change with probability 1 − e^(−λΔ). With C changed fetches of mean interval
 * a = Sc/C and unchanged fetches of total interval Su, the likelihood
 * C·ln(1 − e^(−λa)) − λ·Su is greatest at λ = ln(1 + Sc/Su) / a. A prior rate λ₀ enters as
 * pseudo-fetches at interval 1/λ₀ (one changed, e^(−1)/(1 − e^(−1)) unchanged), which alone give
 * λ₀ and weigh as much as one or two real fetches: a market's own history takes over within a few
 * fetches.
 */

/** What a market's fetches found (prediction.book_fetches). */
export interface FetchEvidence {
  changedFetches: number;
  unchangedFetches: number;
  changedIntervalSec: number;
  unchangedIntervalSec: number;
}

/** Unchanged pseudo-fetches per changed one at interval 1/λ₀: the likelihood's maximum is then λ₀. */
const PRIOR_UNCHANGED = Math.exp(-1) / (1 - Math.exp(-1));

/** The change rate (per second) the evidence and the prior `priorPerSec` (> 0) give. Pure. */
export function estimateChangeRate(e: FetchEvidence, priorPerSec: number): number {
  const priorIntervalSec = 1 / priorPerSec;
  const changed = e.changedFetches + 1;
  const changedSec = e.changedIntervalSec + priorIntervalSec;
  const unchangedSec = e.unchangedIntervalSec + PRIOR_UNCHANGED * priorIntervalSec;
  return Math.log1p(changedSec / unchangedSec) / (changedSec / changed);
}

/** Fetches after a first one a market needs before its own rate calibrates the prior of the others. */
export const CALIBRATION_FETCHES = 3;

/**
 * The prior of each market: its traded volume per second times one ratio of changes to volume,
 * measured over the markets with at least CALIBRATION_FETCHES fetches of evidence (their
 * estimated rates against their volumes). A market with no volume gets the least rate of the
 * others. Before any market has evidence, the ratio makes the markets' rates add up to
 * `fallbackTotalPerSec` (the sweep's fetch rate: no change rate is known, so every fetch is
 * expected to find one). Every prior is at least `floorPerSec`. Pure; one pass over the markets.
 */
export function priorRates(
  markets: readonly (FetchEvidence & { volumePerSec: number | null })[],
  options: { fallbackTotalPerSec: number; floorPerSec: number },
): Float64Array {
  let rateSum = 0;
  let volumeSum = 0;
  let allVolume = 0;
  let minVolume = Infinity;
  for (const m of markets) {
    const v = m.volumePerSec ?? 0;
    if (v > 0) {
      allVolume += v;
      minVolume = Math.min(minVolume, v);
    }
    const e = m;
    if (v > 0 && e.changedFetches + e.unchangedFetches >= CALIBRATION_FETCHES) {
      volumeSum += v;
      // Under a prior of the changes seen per second of exposure, near the evidence's own rate:
      // a far-off prior would weigh on the ratio.
      const seenPerSec = (e.changedFetches + 0.5) / (e.changedIntervalSec + e.unchangedIntervalSec);
      rateSum += estimateChangeRate(e, seenPerSec);
    }
  }
  const perVolume = volumeSum > 0 ? rateSum / volumeSum : allVolume > 0 ? options.fallbackTotalPerSec / allVolume : 0;
  const least = Number.isFinite(minVolume) ? minVolume : 0;
  const priors = new Float64Array(markets.length);
  for (let i = 0; i < markets.length; i++) {
    const v = markets[i]!.volumePerSec;
    priors[i] = Math.max(options.floorPerSec, perVolume * (v !== null && v > 0 ? v : least));
  }
  return priors;
}
