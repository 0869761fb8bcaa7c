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
 * Share of the time a book is fresh when some of its changes are told by a change signal and
 * stored `lagSec` after it (a fill in the trade feed, a moved listing: the sweep fetches the book
 * next). Changes no signal tells come at `untoldPerSec`, told ones at `toldPerSec`, and the fetches
 * (told ones among them) every 1/f on average, intervals of shape `shape`. At an age a since the
 * last fetch the book is fresh when no untold change came in a and no told one in the last
 * min(a, lagSec) (one told before would have been fetched since): a share
 * (f)∫e^(−u·a − σ·min(a, L))·P(interval > a) da. That integral needs the gamma law's incomplete
 * function; the step e^(−σ·min(a, L)) is taken as w + (1 − w)e^(−r·a) instead, with w = e^(−σL)
 * and r = σ/(1 − w): equal at 0, with the same slope there, and at either end of L (0: every told
 * change stored at once, freshShare(u); ∞: no change told, freshShare(u + σ)), so the share is
 * w·freshShare(u) + (1 − w)·freshShare(u + r). It stays within 0.06 of the integral for any
 * rates, lag and interval (test/sync/fetchAllocation.test.ts), closest when the lag is far from
 * the mean interval. Pure.
 */
export function toldFreshShare(untoldPerSec: number, toldPerSec: number, lagSec: number, fetchesPerSec: number, shape = Infinity): number {
  // No change told, or each stored at once.
  if (!(toldPerSec > 0) || !(lagSec > 0)) return freshShare(untoldPerSec, fetchesPerSec, shape);
  const held = Math.exp(-toldPerSec * lagSec);
  const r = toldPerSec / -Math.expm1(-toldPerSec * lagSec);
  return held * freshShare(untoldPerSec, fetchesPerSec, shape) + (1 - held) * freshShare(untoldPerSec + r, fetchesPerSec, shape);
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
