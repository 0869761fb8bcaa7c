import { allocateBooks, type BookCandidate } from '../sync/bookSchedule.js';
import { CALIBRATION_FETCHES, intervalShape } from '../sync/changeRate.js';
import { plainFreshness, weightedFreshness } from '../sync/fetchAllocation.js';
import { firstPlanSec } from '../sync/planEndMs.js';

/** What the sweep's fetches are predicted to capture, from each open market's estimated change rate. */
export interface BookInformation {
  openMarkets: number;
  /** Book fetches a second the replayed sweeps send. */
  fetchesPerSec: number;
  /** Sum of the open markets' estimated change rates, a second. */
  changesPerSec: number;
  /** Markets with fetch evidence of their own (a fetch after their first). */
  marketsWithEvidence: number;
  /**
   * Shape of the gamma law of a market's fetch intervals around their mean, fitted on the
   * evidence of all fetches (changeRate.ts's intervalShape, signalled fetches among the changed);
   * Infinity when they look evenly spaced.
   */
  intervalShape: number;
  /** Predicted F, Fv and C at the sweep's allocation (bookSchedule.ts's allocateBooks). */
  predictedF: number;
  predictedFv: number;
  /**
   * Predicted share of the book states stored. For a Poisson book fetched every 1/f, a state is
   * stored with probability G(λ, f), the same as its freshness, and states come in proportion to λ:
   * so C is predicted as Fv (the crawl's listed prices, which the prediction leaves out, add to both).
   */
  predictedC: number;
  /** Fv of the same fetches spread evenly (round-robin), for comparison. */
  roundRobinFv: number;
  /**
   * Markets whose every fetch found a change (at least CALIBRATION_FETCHES after their first), and
   * their share of the estimated changes. Such evidence bounds a rate from below only: when these
   * hold much of the activity, the rates are low and the predicted Fv and C high (bench/README.md
   * measured `plan` 1.3× the measured Fv at 60 requests a minute, where the busiest books were
   * fetched every 26 s and changed every 2 s).
   */
  lowerBoundRates: { markets: number; changeShare: number };
}

/**
 * Predicts the sweep's capture at `fetchesPerSec` from the same allocation the sweep makes
 * (allocateBooks: estimated rates, floors, fetches in proportion to the rates), taking the
 * estimated rates as true and each market's fetches as spaced as unevenly as the database's
 * evidence shows them (the fitted interval shape, fetchAllocation.ts's freshShare), not evenly.
 * The spacing is fitted on all the fetches, those a listed move or a fill brought forward among
 * the changed ones, not on the blind ones alone as the rates are: such a fetch comes right after
 * a change, and the book's freshness depends on every fetch. Fitted on the blind fetches alone,
 * the shape took 0.05–0.08 off the predicted Fv at 600 requests a minute (0.82–0.85× and 0.91×
 * the measured, bench/README.md). Pure.
 */
export function bookInformation(
  candidates: readonly BookCandidate[],
  options: { nowMs: number; sweepEverySec: number; fetchesPerSec: number; maxAgeSec: number; booksPerBatch: number },
): BookInformation {
  const n = candidates.length;
  const { ratesPerSec, allocation } = allocateBooks(candidates, {
    nowMs: options.nowMs,
    horizonSec: firstPlanSec(options.sweepEverySec, options.fetchesPerSec),
    fetchesPerSec: options.fetchesPerSec,
    maxAgeSec: options.maxAgeSec,
    batchSize: options.booksPerBatch,
  });
  const shape = intervalShape(
    candidates.map((c) => ({
      ...c,
      changedFetches: c.changedFetches + c.signalledChangedFetches,
      changedIntervalSec: c.changedIntervalSec + c.signalledIntervalSec,
    })),
  );
  const uniform = new Float64Array(n).fill(n === 0 ? 0 : options.fetchesPerSec / n);
  const predictedFv = weightedFreshness(ratesPerSec, allocation.fetchesPerSec, shape);
  let changesPerSec = 0;
  let boundedMarkets = 0;
  let boundedPerSec = 0;
  for (let i = 0; i < n; i++) {
    const c = candidates[i]!;
    changesPerSec += ratesPerSec[i]!;
    // Signalled fetches too: a book whose every fetch a fill brought forward found a change each
    // time is bounded as much.
    if (c.unchangedFetches === 0 && c.changedFetches + c.signalledChangedFetches >= CALIBRATION_FETCHES) {
      boundedMarkets += 1;
      boundedPerSec += ratesPerSec[i]!;
    }
  }
  return {
    openMarkets: n,
    fetchesPerSec: options.fetchesPerSec,
    changesPerSec,
    marketsWithEvidence: candidates.filter((c) => c.changedFetches + c.unchangedFetches > 0).length,
    intervalShape: shape,
    predictedF: plainFreshness(ratesPerSec, allocation.fetchesPerSec, shape),
    predictedFv,
    predictedC: predictedFv,
    roundRobinFv: weightedFreshness(ratesPerSec, uniform, shape),
    lowerBoundRates: { markets: boundedMarkets, changeShare: changesPerSec > 0 ? boundedPerSec / changesPerSec : 0 },
  };
}
