import { gammaTwoPoints } from './gammaTwoPoints.js';

/**
 * How the sweep divides its book fetches between markets. The objective is Fv: the share of
 * (market, instant) pairs whose stored book equals the true one, each market weighted by its
 * activity (its change rate λ), which is what a backtest over liquid markets sees. A book changing
 * as a Poisson process of rate λ and fetched every 1/f is fresh a share
 * G(λ, f) = (f/λ)(1 − e^(−λ/f)) of the time (Cho & Garcia-Molina, ACM TODS 28(4), 2003). With
 * weights w = λ, the marginal value of a fetch, w·(1 − (1 + x)e^(−x))/λ with x = λ/f, depends on x
 * alone, so the best division of a fixed number of fetches gives every market the same x:
 * fetches in proportion to the change rate. That division leaves F, every market weighted alike,
 * below round-robin's, so F enters the objective too, at a fixed weight (bookSchedule.ts's
 * F_WEIGHT): w = λ + c for every market, and the quiet ones get more fetches a change than the
 * busy ones. Each market also has a floor (ORDERBOOK_MAX_AGE_SEC, sooner near its close, and a
 * share of an even split) and a ceiling (a book is not fetched twice within one fetch batch).
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
  /**
   * The common value ν of a further fetch to the markets between their floor and ceiling: each has
   * ((λ + c)/λ)·h(λ/f) = ν (allocateFetchRates); 0 when the floors take it all.
   */
  marginalValue: number;
}

/**
 * h(x) = 1 − (1 + x)e^(−x): the gain in fresh share of a further fetch to a book fetched every
 * 1/f, times λ, with x = λ/f. Below 0.1, where the difference loses digits, its series
 * x²/2 − x³/3 + x⁴/8 − x⁵/30 + x⁶/144 (the next term under 1e-7 of it). Pure.
 */
function marginalGain(x: number): number {
  if (!Number.isFinite(x)) return 1;
  if (x >= 0.1) return 1 - (1 + x) * Math.exp(-x);
  return x * x * (1 / 2 + x * (-1 / 3 + x * (1 / 8 + x * (-1 / 30 + x / 144))));
}

/** The gain up to which inverseMarginalGain reads its table (x about 3.9). */
const TABLE_TOP_GAIN = 0.9;
const TABLE_STEPS_PER_ROOT = 2048;
/** x/√y at √y = k/TABLE_STEPS_PER_ROOT (√2 at 0), x found by halving on h. */
const RATIO_TABLE = Float64Array.from({ length: Math.ceil(Math.sqrt(TABLE_TOP_GAIN) * TABLE_STEPS_PER_ROOT) + 2 }, (_, k) => {
  const u = k / TABLE_STEPS_PER_ROOT;
  if (k === 0) return Math.SQRT2;
  let lo = 0;
  let hi = 64;
  for (let step = 0; step < 100; step++) {
    const mid = (lo + hi) / 2;
    if (marginalGain(mid) < u * u) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2 / u;
});

/**
 * The inverse of marginalGain: x with h(x) = y, for 0 ≤ y < 1 (Infinity from 1). Up to
 * TABLE_TOP_GAIN from a table of x/√y over √y, which is smooth (x ≈ √(2y) near 0), linear between
 * its points: a square root and two reads, where the allocation inverts h for every market between
 * its bounds in each of its passes. Above it, where x grows as −ln(1 − y), by Newton's steps on
 * x − ln(1 + x) = −ln(1 − y) (1 − h = (1 + x)e^(−x); the slope is x/(1 + x)). Pure.
 */
function inverseMarginalGain(y: number): number {
  if (!(y > 0)) return 0;
  if (y >= 1) return Infinity;
  if (y < TABLE_TOP_GAIN) {
    const u = Math.sqrt(y);
    const at = u * TABLE_STEPS_PER_ROOT;
    const i = Math.floor(at);
    return u * (RATIO_TABLE[i]! + (at - i) * (RATIO_TABLE[i + 1]! - RATIO_TABLE[i]!));
  }
  const z = -Math.log1p(-y);
  let x = z + Math.log1p(z);
  for (let step = 0; step < 20; step++) {
    const next = x - ((x - Math.log1p(x) - z) * (1 + x)) / x;
    if (Math.abs(next - x) <= 1e-12 * x) return next;
    x = next;
  }
  return x;
}

/**
 * Fetch rates for each market that maximise Σ (λ + c)·G(λ, f), c = `fWeightPerSec`, with the
 * rates adding up to `totalPerSec` (the sweep's fetch rate) to a ten-thousandth, each between its
 * floor and the ceiling. With c = 0 (the default) that is Fv, and the rates are
 * f = clamp(s·λ, floor, ceiling) for one s; a weight c > 0 on every market adds F to the objective
 * (Σ (λ + c)·G = Λ·Fv + c·n·F for the markets' n and summed rates Λ), and the quiet markets get
 * more fetches a change than the busy ones. Where the objective's gain of a further fetch,
 * ((λ + c)/λ)·h(λ/f), is the same value ν for every market between its bounds, no fetch moved
 * from one to another raises it (it is concave in each f). The rates fall as ν rises. From the
 * ν of fetches in proportion to the rates, factors of 4 bracket it; the markets that keep a bound
 * across the bracket (tested against thresholds set once) are then summed once, and regula falsi
 * (the Illinois step) on ν's logarithm goes over the others alone: 6 passes in bench/bookOrder.ts's
 * sweep, the first two over every market. When the floors alone exceed the total, every market gets its floor (the sweep
 * then fetches the most overdue first). Pure.
 */
export function allocateFetchRates(
  rates: Float64Array,
  floors: Float64Array,
  ceilingPerSec: number,
  totalPerSec: number,
  fWeightPerSec = 0,
): Allocation {
  const n = rates.length;
  const c = Math.max(0, fWeightPerSec);
  // Per market: the share λ/(λ + c) that turns ν into its h, and the ν at and above which it keeps
  // its floor (h(λ/floor)/share) and at and below which it gets the ceiling.
  const share = new Float64Array(n);
  const floorAt = new Float64Array(n);
  const ceilingAt = new Float64Array(n);
  const out = new Float64Array(n);
  let floorSum = 0;
  let rateSum = 0;
  for (let i = 0; i < n; i++) {
    const rate = rates[i]!;
    out[i] = floors[i]!;
    floorSum += floors[i]!;
    if (!(rate > 0)) {
      ceilingAt[i] = -1;
      continue;
    }
    rateSum += rate;
    share[i] = rate / (rate + c);
    const top = Math.max(floors[i]!, ceilingPerSec);
    floorAt[i] = marginalGain(rate / floors[i]!) / share[i]!;
    ceilingAt[i] = top > floors[i]! ? marginalGain(rate / top) / share[i]! : floorAt[i]!;
  }
  if (floorSum >= totalPerSec || rateSum === 0) return { fetchesPerSec: out, marginalValue: 0 };

  // The markets a pass goes over (all at first), and what the others add up to.
  const active = new Int32Array(n);
  for (let i = 0; i < n; i++) active[i] = i;
  let count = n;
  let fixedSum = 0;
  const fill = (value: number) => {
    let sum = fixedSum;
    // Markets of one share (c = 0: all of them) invert h once.
    let lastY = NaN;
    let lastX = 0;
    for (let k = 0; k < count; k++) {
      const i = active[k]!;
      let f: number;
      if (value >= floorAt[i]!) f = floors[i]!;
      else if (value <= ceilingAt[i]!) f = Math.max(floors[i]!, ceilingPerSec);
      else {
        const y = value * share[i]!;
        if (y !== lastY) {
          lastY = y;
          lastX = inverseMarginalGain(y);
        }
        f = Math.max(floors[i]!, Math.min(ceilingPerSec, rates[i]! / lastX));
      }
      out[i] = f;
      sum += f;
    }
    return sum - totalPerSec;
  };
  // The sum falls as ν rises. Bracketed in factors of 4 from fetches in proportion to the rates,
  // bounds aside (x = Λ/total for every market); lo's sum is over the total, hi's under it.
  const factor = Math.log(4);
  let lo = Math.log(marginalGain(rateSum / totalPerSec));
  let gLo = fill(Math.exp(lo));
  let hi = lo;
  let gHi = gLo;
  for (let step = 0; step < 64 && gLo < 0; step++) {
    [hi, gHi] = [lo, gLo];
    lo -= factor;
    gLo = fill(Math.exp(lo));
  }
  // Past 64 steps down every market has its ceiling, and they fall short of the total.
  if (gLo < 0) return { fetchesPerSec: out, marginalValue: Math.exp(lo) };
  for (let step = 0; step < 64 && gHi > 0; step++) {
    [lo, gLo] = [hi, gHi];
    hi += factor;
    gHi = fill(Math.exp(hi));
  }
  if (gLo === 0 || gHi === 0) {
    const value = Math.exp(gLo === 0 ? lo : hi);
    fill(value);
    return { fetchesPerSec: out, marginalValue: value };
  }
  // A market at its floor at lo's ν keeps it up to hi's, one at its ceiling at hi's keeps it down to lo's.
  const [loValue, hiValue] = [Math.exp(lo), Math.exp(hi)];
  let kept = 0;
  for (let k = 0; k < count; k++) {
    const i = active[k]!;
    if (loValue >= floorAt[i]! || hiValue <= ceilingAt[i]!) fixedSum += out[i]!;
    else active[kept++] = i;
  }
  count = kept;
  let value = loValue;
  let side = 0;
  for (let step = 0; step < 100; step++) {
    const next = (lo * gHi - hi * gLo) / (gHi - gLo);
    const mid = next > lo && next < hi ? next : (lo + hi) / 2;
    value = Math.exp(mid);
    const g = fill(value);
    if (Math.abs(g) <= 1e-4 * totalPerSec || hi - lo < 1e-12) break;
    if (g > 0) {
      [lo, gLo] = [mid, g];
      if (side === 1) gHi /= 2;
      side = 1;
    } else {
      [hi, gHi] = [mid, g];
      if (side === -1) gLo /= 2;
      side = -1;
    }
  }
  return { fetchesPerSec: out, marginalValue: value };
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
