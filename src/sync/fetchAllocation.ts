import { gammaTwoPoints } from './gammaTwoPoints.js';

/**
 * How the sweep divides its book fetches between markets. The objective is Fv: the share of
 * (market, instant) pairs whose stored book equals the true one, each market weighted by its
 * activity (its change rate λ), which is what a backtest over liquid markets sees. A book changing
 * as a Poisson process of rate λ and fetched every 1/f is fresh a share
 * G(λ, f) = (f/λ)(1 − e^(−λ/f)) of the time (Cho & Garcia-Molina, ACM TODS 28(4), 2003). With
 * weights w = λ, the marginal value of a fetch, w·(1 − (1 + x)e^(−x))/λ with x = λ/f, depends on x
 * alone, so the best division of a fixed number of fetches gives every market the same x:
 * fetches in proportion to the change rate. Each market also has a floor (ORDERBOOK_MAX_AGE_SEC,
 * sooner near its close) and a ceiling (a book is not fetched twice within one fetch batch).
 */

/**
 * Share of the time a book of change rate `ratePerSec` fetched `fetchesPerSec` is fresh: G(λ, f)
 * for evenly spaced fetches. With intervals gamma-distributed around 1/f of shape `shape`
 * (changeRate.ts's intervalShape), each interval Δ is fresh (1 − e^(−λΔ))/λ of its length, so the
 * share is (f/λ)(1 − (1 + x/k)^(−k)) with x = λ/f, below G for any finite k. Pure.
 */
export function freshShare(ratePerSec: number, fetchesPerSec: number, shape = Infinity): number {
  if (fetchesPerSec <= 0) return ratePerSec <= 0 ? 1 : 0;
  if (ratePerSec <= 0) return 1;
  const x = ratePerSec / fetchesPerSec;
  if (x < 1e-9) return 1 - x / 2;
  // (1 − e^(−x))/x, or (1 − (1 + x/k)^(−k))/x, exact for small x too.
  return (Number.isFinite(shape) ? -Math.expm1(-shape * Math.log1p(x / shape)) : -Math.expm1(-x)) / x;
}

/**
 * Share of the time a book of change rate `ratePerSec` λ is fresh when it is fetched
 * `fetchesPerSec` f in all, `signalledPerSec` of them brought forward by a change signal (a fill in
 * the trade feed, a moved listing) that came a lag `lagSec` L before the fetch's answer. The sweep
 * plans a book's next blind fetch an interval X after its last fetch of either kind
 * (sync/bookSchedule.ts), and a signalled fetch comes only after a change: an interval that ends
 * on a signal was never spent on a fresh book. So each interval is fresh until its first change
 * or its blind end, whichever comes first, and the share is exactly f·E[min(first change, X)]
 * = f·(1 − E[e^(−λX)])/λ: f/λ when every fetch is signalled.
 *
 * X, spread as a gamma law of shape `shape` around a mean μ (freshShare), is found from the two
 * rates. With the first told change after a fetch coming at a rate σ, an interval is
 * min(X, L + T), T exponential: a share p = E[1 − e^(−σ(X − L)); X > L] of the fetches are
 * signalled, and the mean interval is 1/f = E[min(X, L)] + p/σ. For a given μ the second gives σ;
 * the share of signalled fetches then rises with μ, and μ is where it is the measured one
 * (regula falsi, the law's expectations taken over its two points, gammaTwoPoints). With no signalled
 * fetch, or a lag as long as the mean interval (the signals then come too late to cut one short),
 * the book is fetched blind: freshShare(λ, f).
 *
 * On three capture runs at 60 requests a minute (bench/README.md) the model before, which took
 * each told change as fetched a lag after it and the others as waiting, predicted the busy books'
 * freshness 10–15 % low in each: for a book changing every 10 s, fetched every 25 s, each fetch on
 * a signal 13 s old, it gave 0.32 where this gives 0.40 (f/λ). Against simulated books this is
 * within 0.01 with evenly spaced blind intervals, 0.02 and 0.03 with gamma ones of shape 2 and 1
 * (test/sync/fetchAllocation.test.ts). Pure.
 */
export function signalledFreshShare(
  ratePerSec: number,
  fetchesPerSec: number,
  signalledPerSec: number,
  lagSec: number,
  shape = Infinity,
): number {
  const signalled = Math.min(1, Math.max(0, signalledPerSec / fetchesPerSec));
  const meanSec = 1 / fetchesPerSec;
  const lag = Math.max(0, lagSec);
  if (!(fetchesPerSec > 0) || !(signalled > 0) || !(meanSec > lag)) return freshShare(ratePerSec, fetchesPerSec, shape);
  if (!(ratePerSec > 0)) return 1;
  if (signalled === 1) return Math.min(1, fetchesPerSec / ratePerSec);
  // The share of signalled fetches at blind mean μ, σ set by the mean interval.
  const signalledAt = (blindSec: number) => {
    const x = gammaTwoPoints(blindSec, shape);
    const beforeLagSec = x.shortShare * Math.min(x.shortSec, lag) + (1 - x.shortShare) * Math.min(x.longSec, lag);
    const told = signalled / (meanSec - beforeLagSec);
    const cut = (sec: number) => (sec > lag ? -Math.expm1(-told * (sec - lag)) : 0);
    return x.shortShare * cut(x.shortSec) + (1 - x.shortShare) * cut(x.longSec);
  };
  // μ is at least the mean interval (every interval is at most its blind one). Regula falsi with
  // the Illinois step within the bracket: 5 µs a book where halving took 15 (`plan` over 100,000
  // markets calls this for each one that had signalled fetches).
  let lo = meanSec;
  let hi = 2 * meanSec;
  let gLo = signalledAt(lo) - signalled;
  let gHi = signalledAt(hi) - signalled;
  for (let step = 0; step < 100 && gHi < 0; step++) {
    [lo, gLo] = [hi, gHi];
    hi *= 2;
    gHi = signalledAt(hi) - signalled;
  }
  // Where the signalled share is reached at the mean interval already, μ is that interval.
  let blindSec = lo;
  if (gLo < 0) {
    let side = 0;
    for (let step = 0; step < 100 && hi - lo > 1e-9 * hi; step++) {
      const next = (lo * gHi - hi * gLo) / (gHi - gLo);
      const mid = next > lo && next < hi ? next : (lo + hi) / 2;
      const g = signalledAt(mid) - signalled;
      const settled = Math.abs(mid - blindSec) <= 1e-9 * mid;
      blindSec = mid;
      if (settled || g === 0) break;
      if (g < 0) {
        [lo, gLo] = [mid, g];
        if (side === -1) gHi /= 2;
        side = -1;
      } else {
        [hi, gHi] = [mid, g];
        if (side === 1) gLo /= 2;
        side = 1;
      }
    }
  }
  return Math.min(1, fetchesPerSec * blindSec * freshShare(ratePerSec, 1 / blindSec, shape));
}

export interface Allocation {
  /** Fetches a second each market gets. */
  fetchesPerSec: Float64Array;
  /** The common fetches per change (f/λ) of the markets between their floor and ceiling; 0 when the floors take it all. */
  fetchesPerChange: number;
}

/**
 * Fetch rates f = clamp(s·λ, floor, ceiling) for each market, with s such that the rates add up
 * to `totalPerSec` (the sweep's fetch rate) to a ten-thousandth. When the floors alone exceed it,
 * every market gets its floor (the sweep then fetches the most overdue first). The sum is
 * piecewise linear in s, so Newton's steps (its slope: the rates of the markets between floor and
 * ceiling) land on the root once in its piece, within a bracket they fall back to halving: about
 * 5 passes over the markets where halving alone took 16. Pure.
 */
export function allocateFetchRates(rates: Float64Array, floors: Float64Array, ceilingPerSec: number, totalPerSec: number): Allocation {
  const n = rates.length;
  const out = new Float64Array(n);
  let slope = 0;
  const total = (s: number) => {
    let sum = 0;
    slope = 0;
    for (let i = 0; i < n; i++) {
      const f = s * rates[i]!;
      // clamp(f, floor, ceiling) with the floor winning where it is above the ceiling.
      if (f >= ceilingPerSec) sum += Math.max(floors[i]!, ceilingPerSec);
      else if (f <= floors[i]!) sum += floors[i]!;
      else {
        sum += f;
        slope += rates[i]!;
      }
    }
    return sum;
  };
  let s = 0;
  if (total(0) < totalPerSec) {
    // Bracketed from the proportional share (floors and ceiling aside).
    let rateSum = 0;
    for (let i = 0; i < n; i++) rateSum += rates[i]!;
    let hi = rateSum > 0 ? totalPerSec / rateSum : 1;
    while (total(hi) < totalPerSec && hi < 1e300) hi *= 2;
    let lo = 0;
    s = hi;
    for (let step = 0; step < 60 && hi - lo > 1e-12 * hi; step++) {
      const sum = total(s);
      if (Math.abs(sum - totalPerSec) <= 1e-4 * totalPerSec) break;
      if (sum < totalPerSec) lo = s;
      else hi = s;
      const next = slope > 0 ? s - (sum - totalPerSec) / slope : NaN;
      s = next > lo && next < hi ? next : (lo + hi) / 2;
    }
  }
  for (let i = 0; i < n; i++) out[i] = Math.max(floors[i]!, Math.min(ceilingPerSec, s * rates[i]!));
  return { fetchesPerSec: out, fetchesPerChange: s };
}

/** Fv the allocation gives if the rates are true: Σ λ·G(λ, f) / Σ λ (intervals of shape `shape`, freshShare). Pure. */
export function weightedFreshness(rates: Float64Array, fetchesPerSec: Float64Array, shape = Infinity): number {
  let num = 0;
  let den = 0;
  for (let i = 0; i < rates.length; i++) {
    num += rates[i]! * freshShare(rates[i]!, fetchesPerSec[i]!, shape);
    den += rates[i]!;
  }
  return den === 0 ? 1 : num / den;
}
