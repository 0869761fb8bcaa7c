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
 * Share of the time a book is fresh when some of its changes are told by a change signal (a fill
 * in the trade feed, a moved listing), each fetched a lag after it, of mean `lagSec`. Changes no
 * signal tells come at `untoldPerSec` u, told ones at `toldPerSec` σ, and the book is fetched
 * `fetchesPerSec` f in all, the told changes' fetches among them. The sweep puts a book's next
 * fetch a planned interval after its last one of either kind (sync/bookSchedule.ts), so the
 * intervals are renewals: each the least of a blind interval X (shape `shape` around its mean μ)
 * and the wait for the next told change's fetch, taken as exponential of rate σ; μ is the one at
 * which they average 1/f. At age A since the last fetch the book is fresh when no untold change
 * came in A and no told one whose fetch is still to come: with exponential lags, the told changes
 * of the last A still unfetched are Poisson of mean σL(1 − e^(−A/L)), so the share is
 * E[e^(−u·A − σL(1 − e^(−A/L)))] = e^(−σL)·Σₙ (σL)ⁿ/n!·E[e^(−(u + n/L)·A)], and for renewals
 * E[e^(−c·A)] = G_X(c + σ)/G_X(σ), with G_X(s) = freshShare(s, 1/μ, shape), each in closed form.
 *
 * Replayed with the true rates on capture runs (bench/README.md), this came to 0.90–1.15× the
 * measured Fv in six at 60 requests a minute (0.99× on average) and 0.99–1.03× in six at 600 and
 * 3,000. Taking every fetch as one process spaced like the blind ones, with the told changes only
 * out of the rate that waits for it, came to 1.01–1.25× at 60 (1.09× on average); taking the told
 * fetches as a Poisson process beside blind ones that ignore them, 0.83–1.08× (0.93×). Against
 * simulated books this is within 0.02 with exponential lags, within 0.03 with fixed ones
 * (test/sync/fetchAllocation.test.ts). Pure.
 */
export function toldFreshShare(untoldPerSec: number, toldPerSec: number, lagSec: number, fetchesPerSec: number, shape = Infinity): number {
  const told = Math.max(0, toldPerSec);
  if (!(told > 0)) return freshShare(untoldPerSec, fetchesPerSec, shape);
  // The blind intervals' mean μ at which E[min(X, wait)] = (1 − E[e^(−σX)])/σ is 1/f; none when
  // the told changes' fetches alone make up f.
  const rest = 1 - told / fetchesPerSec;
  const blindPerSec = !(rest > 0) ? 0 : told / (Number.isFinite(shape) ? shape * Math.expm1(-Math.log(rest) / shape) : -Math.log(rest));
  // E[e^(−c·A)] for the renewals: G_X(c + σ)/G_X(σ), or σ/(c + σ) with no blind fetch.
  const atTold = freshShare(told, blindPerSec, shape);
  const fresh = (c: number) => (blindPerSec > 0 ? freshShare(c + told, blindPerSec, shape) / atTold : told / (c + told));
  const x = told * lagSec;
  if (!(x > 0)) return fresh(untoldPerSec);
  let share = 0;
  let weight = Math.exp(-x);
  for (let n = 0; n < 10_000; n++) {
    share += weight * fresh(untoldPerSec + n / lagSec);
    weight *= x / (n + 1);
    if (n > x && weight < 1e-12) break;
  }
  return share;
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
