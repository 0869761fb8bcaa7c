/**
 * F, Fv and C of a capture against the world's true states, and the same measures for the
 * reference policies replayed on the same change log with the same number of book fetches
 * (bench/capture.ts; the measures are defined in bench/README.md).
 */
import { mulberry32 } from '../../src/simulator/world/prng.js';
import { allocateFetchRates } from '../../src/sync/fetchAllocation.js';

/** A market's true states: when each took effect (ascending) and its content key. */
export interface TrueBook {
  rate: number;
  atMs: number[];
  keys: string[];
  /** Whether each state began with a trade (the feed and the listed prices show it). */
  traded: boolean[];
}

/** A stored snapshot: first observed, last confirmed, content key. */
export interface StoredBook {
  observedMs: number;
  lastObservedMs: number;
  key: string;
}

export interface Measures {
  F: number;
  Fv: number;
  C: number;
  /** C over the states that began with a trade, and over the others. */
  CTraded: number;
  CUntraded: number;
  /** C counting only what was stored within the window: a state that held at its start counts only if fetched again in it. */
  CInWindow: number;
}

/** Index of the last element <= t (-1 if none). */
function lastAtOrBefore(xs: readonly number[], t: number): number {
  let lo = 0;
  let hi = xs.length - 1;
  let at = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (xs[mid]! <= t) {
      at = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return at;
}

/**
 * The measures given, for each market, the key stored at any instant and whether a state was
 * stored while it held. C counts the states that held in the window, each stored if a fetch fell
 * in its life up to the window's end, before the window too: a quiet book's state stored minutes
 * before is stored. C in window counts only fetches within it, so each quiet book's state at the
 * window's start needs a fetch in the window, as if the service had started with it.
 */
function measure(
  truth: ReadonlyMap<string, TrueBook>,
  window: { fromMs: number; toMs: number; stepMs: number },
  freshAt: (id: string, book: TrueBook, state: number, t: number) => boolean,
  captured: (id: string, book: TrueBook, state: number, fromMs: number, toMs: number) => boolean,
): Measures {
  let fresh = 0;
  let samples = 0;
  let weighted = 0;
  let weights = 0;
  let states = 0;
  let stored = 0;
  let tradedStates = 0;
  let tradedStored = 0;
  let storedInWindow = 0;
  for (const [id, book] of truth) {
    for (let t = window.fromMs; t < window.toMs; t += window.stepMs) {
      const state = lastAtOrBefore(book.atMs, t);
      if (state < 0) continue;
      const ok = freshAt(id, book, state, t) ? 1 : 0;
      fresh += ok;
      samples += 1;
      weighted += ok * book.rate;
      weights += book.rate;
    }
    for (let s = 0; s < book.atMs.length; s++) {
      const from = book.atMs[s]!;
      const to = book.atMs[s + 1] ?? Infinity;
      if (to <= window.fromMs || from >= window.toMs) continue;
      // Stored while it held: at any time of its life before the window's end, before the window too.
      const hit = captured(id, book, s, from, Math.min(to, window.toMs)) ? 1 : 0;
      states += 1;
      stored += hit;
      storedInWindow += captured(id, book, s, Math.max(from, window.fromMs), Math.min(to, window.toMs)) ? 1 : 0;
      if (book.traded[s] === true) {
        tradedStates += 1;
        tradedStored += hit;
      }
    }
  }
  return {
    F: fresh / samples,
    Fv: weighted / weights,
    C: stored / states,
    CTraded: tradedStored / tradedStates,
    CUntraded: (stored - tradedStored) / (states - tradedStates),
    CInWindow: storedInWindow / states,
  };
}

/** What the pipeline stored, against the truth. */
export function measureStored(
  truth: ReadonlyMap<string, TrueBook>,
  stored: ReadonlyMap<string, StoredBook[]>,
  window: { fromMs: number; toMs: number; stepMs: number },
): Measures {
  const times = new Map([...stored].map(([id, rows]) => [id, rows.map((r) => r.observedMs)]));
  return measure(
    truth,
    window,
    (id, book, state, t) => {
      const rows = stored.get(id) ?? [];
      const at = lastAtOrBefore(times.get(id) ?? [], t);
      return at >= 0 && rows[at]!.key === book.keys[state];
    },
    (id, book, state, fromMs, toMs) =>
      (stored.get(id) ?? []).some((r) => r.key === book.keys[state] && r.lastObservedMs >= fromMs && r.observedMs < toMs),
  );
}

/**
 * A policy that fetches each market at regular intervals 1/f (random phase), replayed on the
 * change log: fresh at t when no change came between the last fetch and t; a state is stored
 * when a fetch fell while it held.
 */
export function measurePeriodic(
  truth: ReadonlyMap<string, TrueBook>,
  fetchesPerSec: ReadonlyMap<string, number>,
  window: { fromMs: number; toMs: number; stepMs: number },
  seed = 1,
): Measures {
  const random = mulberry32(seed);
  const phase = new Map<string, number>();
  for (const id of truth.keys()) phase.set(id, random());
  const lastFetch = (id: string, t: number) => {
    const f = fetchesPerSec.get(id) ?? 0;
    if (f <= 0) return -Infinity;
    const periodMs = 1000 / f;
    return Math.floor((t - phase.get(id)! * periodMs) / periodMs) * periodMs + phase.get(id)! * periodMs;
  };
  return measure(
    truth,
    window,
    (id, book, state, t) => lastFetch(id, t) >= book.atMs[state]!,
    (id, _book, _state, fromMs, toMs) => {
      const f = fetchesPerSec.get(id) ?? 0;
      // A fetch in [from, to): the last fetch before `to` is at or after `from`.
      return f > 0 && lastFetch(id, toMs - 1e-6) >= fromMs;
    },
  );
}

/** Round-robin: every market the same rate, `fetches` over the window in all. */
export function roundRobin(truth: ReadonlyMap<string, TrueBook>, fetches: number, windowSec: number): Map<string, number> {
  const f = fetches / truth.size / windowSec;
  return new Map([...truth.keys()].map((id) => [id, f]));
}

/** The best allocation of `fetches` for Fv with the rates known: fetches in proportion to the rates. */
export function bestForFv(truth: ReadonlyMap<string, TrueBook>, fetches: number, windowSec: number): Map<string, number> {
  const ids = [...truth.keys()];
  const rates = Float64Array.from(ids, (id) => truth.get(id)!.rate);
  const { fetchesPerSec } = allocateFetchRates(rates, new Float64Array(ids.length), Infinity, fetches / windowSec);
  return new Map(ids.map((id, i) => [id, fetchesPerSec[i]!]));
}

/**
 * The allocation of `fetches` over the window that stores the most true states in expectation,
 * with the rates known and the fetches evenly spaced: C's best blind allocation, to replay like
 * the others. A book of rate λ fetched k ≥ 1 times a window W, every W/k, stores its state at the
 * first fetch and a new one at each later fetch that follows a change: 1 + (k − 1)(1 − e^(−λW/k))
 * states of the 1 + λW that held (k < 1: a fetch in the window with probability k, one state). The
 * gain of each further fetch falls with k, so giving each fetch to the book it adds most to is
 * optimal. Unlike Fv's best, every book is worth a fetch a window: its state at the window's
 * start counts as one, however quiet the book.
 */
export function bestForC(truth: ReadonlyMap<string, TrueBook>, fetches: number, windowSec: number): Map<string, number> {
  const ids = [...truth.keys()];
  const stored = (rate: number, k: number) => (k <= 1 ? k : 1 + (k - 1) * -Math.expm1((-rate * windowSec) / k));
  const counts = new Float64Array(ids.length);
  const rates = Float64Array.from(ids, (id) => truth.get(id)!.rate);
  for (let f = 0; f < fetches; f++) {
    // A scan for the largest gain: markets are few (hundreds) in a capture.
    let best = 0;
    let bestGain = -1;
    for (let m = 0; m < ids.length; m++) {
      const gain = stored(rates[m]!, counts[m]! + 1) - stored(rates[m]!, counts[m]!);
      if (gain > bestGain) {
        bestGain = gain;
        best = m;
      }
    }
    counts[best] = counts[best]! + 1;
  }
  return new Map(ids.map((id, m) => [id, counts[m]! / windowSec]));
}
