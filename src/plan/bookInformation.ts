import { allocateBooks, type BookCandidate } from '../sync/bookSchedule.js';
import { type FetchEvidence, intervalShape, signalledFetchRate, signalledRate } from '../sync/changeRate.js';
import { freshShare, signalledFreshShare } from '../sync/fetchAllocation.js';
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
   * evidence of all fetches (changeRate.ts's intervalShape; signalled fetches among the others,
   * allFetches); Infinity when they look evenly spaced.
   */
  intervalShape: number;
  /**
   * Mean seconds from a change signal (a fill, a moved listing) to the answer of the fetch it
   * brought forward, over every market's signalled fetches (signalLagSec); 0 when there were none.
   */
  signalLagSec: number;
  /** Predicted F, Fv and C at the sweep's allocation (bookSchedule.ts's allocateBooks). */
  predictedF: number;
  predictedFv: number;
  /**
   * Predicted share of the book states stored. For a Poisson book fetched every 1/f, a state is
   * stored with probability G(λ, f), the same as its freshness, and states come in proportion to λ:
   * so C is predicted as Fv (the crawl's listed prices, which the prediction leaves out, add to both).
   */
  predictedC: number;
  /** Fv and F of the same fetches spread evenly over the markets, none on a signal (round-robin), for comparison. */
  roundRobinFv: number;
  roundRobinF: number;
  /**
   * Markets whose every fetch found a change (at least LOWER_BOUND_FETCHES after their first), and
   * their share of the estimated changes. Such evidence bounds a rate from below only: when these
   * hold much of the activity, the rates are low and the predicted Fv and C high (bench/README.md
   * measured `plan` 1.3× the measured Fv at 60 requests a minute, where the busiest books were
   * fetched every 26 s and changed every 2 s).
   */
  lowerBoundRates: { markets: number; changeShare: number };
}

/** Fetches after a market's first, every one of which found a change, that make its rate a lower bound (lowerBoundRates). */
const LOWER_BOUND_FETCHES = 3;

/**
 * Most of the fetches the signalled ones are taken to hold: what they held at the rate measured
 * (their rate over each market's time fetched), scaled down to this share for a smaller plan, so
 * that the plan's own list keeps a quarter of the fetches for the floors and the busiest books.
 */
const MOST_SIGNALLED_SHARE = 0.75;

/** Mean seconds from a signal to the answer of the fetch it brought forward, over all the markets' signalled fetches; 0 without any. Pure. */
function signalLagSec(markets: readonly FetchEvidence[]): number {
  let lagSec = 0;
  let fetches = 0;
  for (const e of markets) {
    lagSec += e.signalledLagSec;
    fetches += e.signalledFetches;
  }
  return fetches > 0 ? lagSec / fetches : 0;
}

/**
 * A market's evidence with its signalled fetches among the blind ones, changed or not, their
 * intervals split between the two in proportion (only their sum is kept). Pure.
 */
function allFetches(e: BookCandidate): BookCandidate {
  const changedShare = e.signalledFetches > 0 ? e.signalledChangedFetches / e.signalledFetches : 1;
  return {
    ...e,
    changedFetches: e.changedFetches + e.signalledChangedFetches,
    unchangedFetches: e.unchangedFetches + Math.max(0, e.signalledFetches - e.signalledChangedFetches),
    changedIntervalSec: e.changedIntervalSec + changedShare * e.signalledIntervalSec,
    unchangedIntervalSec: e.unchangedIntervalSec + (1 - changedShare) * e.signalledIntervalSec,
  };
}

/**
 * Predicts the sweep's capture at `fetchesPerSec` from the same allocation the sweep makes
 * (allocateBooks: estimated rates, floors, fetches by the rates, F weighed beside Fv) of the fetches the
 * signalled ones leave, each market's signalled fetches added to its share, taking the
 * estimated rates as true and each market's fetches as spaced as unevenly as the database's
 * evidence shows them (the fitted interval shape), not evenly. The spacing is fitted on all the
 * fetches, those a listed move or a fill brought forward among the others (allFetches): the
 * book's freshness depends on every fetch.
 *
 * A fetch that a signal brought forward comes only after a change, so it is never spent on a
 * fresh book: each market's fetches that found a change on a signal (changeRate.ts's
 * signalledRate), the mean lag from a signal to its fetch's answer, and the sweep's next blind
 * fetch a planned interval after the last fetch of either kind give its share
 * (fetchAllocation.ts's signalledFreshShare). Taken as waiting like the others, as if fetch
 * times did not depend on the changes, they put the prediction at 0.87× the measured Fv at 600
 * requests a minute (bench/README.md), where a quiet book's fill was stored 5–6 s after it and
 * its other changes at its next fetch, a minute or more away. Allocated the whole budget, as if
 * the signalled fetches took no share of it, it came out at 1.13× and 1.31× at 60 requests a
 * minute (bench/README.md), where they are about half of them. At another rate than the measured
 * one, the signals are taken as acted on as much, up to MOST_SIGNALLED_SHARE of the fetches. Pure.
 */
export function bookInformation(
  candidates: readonly BookCandidate[],
  options: { nowMs: number; sweepEverySec: number; fetchesPerSec: number; maxAgeSec: number; booksPerBatch: number },
): BookInformation {
  const n = candidates.length;
  // The signalled fetches go first and the plan's list loses as many (sweepOrderBooks.ts): the
  // allocation divides what they leave, and each market's own are added to its share.
  let signalledPerSec = 0;
  for (const c of candidates) signalledPerSec += signalledFetchRate(c);
  const signalScale = signalledPerSec > 0 ? Math.min(1, (MOST_SIGNALLED_SHARE * options.fetchesPerSec) / signalledPerSec) : 1;
  const { ratesPerSec, allocation } = allocateBooks(candidates, {
    nowMs: options.nowMs,
    horizonSec: firstPlanSec(options.sweepEverySec, options.fetchesPerSec),
    fetchesPerSec: options.fetchesPerSec - signalScale * signalledPerSec,
    maxAgeSec: options.maxAgeSec,
    batchSize: options.booksPerBatch,
  });
  const shape = intervalShape(candidates.map(allFetches));
  const lagSec = signalLagSec(candidates);
  const evenPerSec = n === 0 ? 0 : options.fetchesPerSec / n;
  let changesPerSec = 0;
  let fresh = 0;
  let weightedFresh = 0;
  let roundRobinFresh = 0;
  let roundRobinWeightedFresh = 0;
  let boundedMarkets = 0;
  let boundedPerSec = 0;
  for (let i = 0; i < n; i++) {
    const c = candidates[i]!;
    const rate = ratesPerSec[i]!;
    const marketFetchesPerSec = allocation.fetchesPerSec[i]! + signalScale * signalledFetchRate(c);
    // The signalled fetches that found a change: those that came after one (signalledFreshShare).
    const share = signalledFreshShare(rate, marketFetchesPerSec, signalScale * signalledRate(c), lagSec, shape);
    changesPerSec += rate;
    fresh += share;
    weightedFresh += rate * share;
    const evenShare = freshShare(rate, evenPerSec);
    roundRobinFresh += evenShare;
    roundRobinWeightedFresh += rate * evenShare;
    // Signalled fetches too: a book whose every fetch a fill brought forward found a change each
    // time is bounded as much.
    if (c.unchangedFetches === 0 && c.changedFetches + c.signalledChangedFetches >= LOWER_BOUND_FETCHES) {
      boundedMarkets += 1;
      boundedPerSec += rate;
    }
  }
  const predictedFv = changesPerSec > 0 ? weightedFresh / changesPerSec : 1;
  return {
    openMarkets: n,
    fetchesPerSec: options.fetchesPerSec,
    changesPerSec,
    marketsWithEvidence: candidates.filter((c) => c.changedFetches + c.unchangedFetches > 0).length,
    intervalShape: shape,
    signalLagSec: lagSec,
    predictedF: n === 0 ? 1 : fresh / n,
    predictedFv,
    predictedC: predictedFv,
    roundRobinFv: changesPerSec > 0 ? roundRobinWeightedFresh / changesPerSec : 1,
    roundRobinF: n === 0 ? 1 : roundRobinFresh / n,
    lowerBoundRates: { markets: boundedMarkets, changeShare: changesPerSec > 0 ? boundedPerSec / changesPerSec : 0 },
  };
}
