import { describe, expect, it } from 'vitest';

import { Rng } from '../../src/simulator/world/prng.js';
import { estimateChangeRate, type FetchEvidence, intervalShape } from '../../src/sync/changeRate.js';
import { freshShare } from '../../src/sync/fetchAllocation.js';
import { NO_EVIDENCE } from '../helpers/domainFixtures.js';
import { intervalOf } from '../helpers/intervalOf.js';

/**
 * What `fetches` fetches of a book changing as a Poisson process of rate `rate`/s find, each
 * `nextIntervalSec()` after the one before: the changes are drawn as a process in time
 * (exponential gaps), and a fetch finds a change when one fell since the fetch before.
 */
function evidenceAt(rng: Rng, rate: number, fetches: number, nextIntervalSec: () => number): FetchEvidence {
  const e = { ...NO_EVIDENCE };
  let t = 0;
  let nextChange = rng.exponential() / rate;
  for (let k = 0; k < fetches; k++) {
    const interval = nextIntervalSec();
    t += interval;
    if (nextChange <= t) {
      e.changedFetches += 1;
      e.changedIntervalSec += interval;
      e.changedIntervalSqSec += interval * interval;
      while (nextChange <= t) nextChange += rng.exponential() / rate;
    } else {
      e.unchangedFetches += 1;
      e.unchangedIntervalSec += interval;
    }
  }
  return e;
}

/** The same with intervals of mean `meanIntervalSec`, evenly spaced or gamma-distributed (intervalOf). */
function poissonEvidence(rng: Rng, rate: number, meanIntervalSec: number, fetches: number, shape: number): FetchEvidence {
  return evidenceAt(rng, rate, fetches, () => intervalOf(rng, meanIntervalSec, shape));
}

/**
 * What fetches of a book find whose changes come as two Poisson processes: some told by a signal
 * (rate `signalledPerSec`), which brings a fetch forward `delaySec` after the change, and the
 * others (rate `otherPerSec`), found only by the blind fetches, `blindIntervalSec` after the fetch
 * before. A signal that comes too late to bring its fetch ahead of the blind one is found by that.
 */
function signalledEvidence(
  rng: Rng,
  rates: { signalledPerSec: number; otherPerSec: number },
  blindIntervalSec: number,
  delaySec: number,
  fetches: number,
): FetchEvidence {
  const e = { ...NO_EVIDENCE };
  let t = 0;
  let nextSignal = rng.exponential() / rates.signalledPerSec;
  let nextOther = rng.exponential() / rates.otherPerSec;
  for (let k = 0; k < fetches; k++) {
    const signalled = nextSignal + delaySec < t + blindIntervalSec;
    const at = signalled ? nextSignal + delaySec : t + blindIntervalSec;
    const changed = nextSignal <= at || nextOther <= at;
    if (signalled) {
      e.signalledFetches += 1;
      e.signalledChangedFetches += 1;
      e.signalledIntervalSec += at - t;
      e.signalledLagSec += delaySec;
    } else if (changed) {
      e.changedFetches += 1;
      e.changedIntervalSec += at - t;
      e.changedIntervalSqSec += (at - t) ** 2;
    } else {
      e.unchangedFetches += 1;
      e.unchangedIntervalSec += at - t;
    }
    while (nextSignal <= at) nextSignal += rng.exponential() / rates.signalledPerSec;
    while (nextOther <= at) nextOther += rng.exponential() / rates.otherPerSec;
    t = at;
  }
  return e;
}

describe('estimateChangeRate', () => {
  it('adds the signalled rate to the rate the blind fetches give, where taking signalled fetches as blind ones overshoots', () => {
    const rng = Rng.seeded(21);
    for (const [signalledPerSec, otherPerSec, blindSec] of [
      [0.02, 0.01, 60],
      [0.005, 0.02, 30],
      [0.05, 0.05, 26],
    ] as const) {
      const truth = signalledPerSec + otherPerSec;
      const e = signalledEvidence(rng, { signalledPerSec, otherPerSec }, blindSec, 0, 20_000);
      const ratio = estimateChangeRate(e, truth / 10) / truth;
      expect(Math.abs(ratio - 1), `σ ${signalledPerSec}, other ${otherPerSec}: ratio ${ratio}`).toBeLessThan(0.03);
      const asBlind = {
        ...NO_EVIDENCE,
        changedFetches: e.changedFetches + e.signalledChangedFetches,
        unchangedFetches: e.unchangedFetches,
        changedIntervalSec: e.changedIntervalSec + e.signalledIntervalSec,
        unchangedIntervalSec: e.unchangedIntervalSec,
      };
      // Further above the rate than the split is off it.
      const asBlindRatio = estimateChangeRate(asBlind, truth / 10) / truth;
      expect(asBlindRatio - 1, `σ ${signalledPerSec}, other ${otherPerSec}`).toBeGreaterThan(Math.abs(ratio - 1) + 0.03);
    }
  });

  it('stays near the rate when the signalled fetches go out seconds after their signal', () => {
    const e = signalledEvidence(Rng.seeded(22), { signalledPerSec: 0.02, otherPerSec: 0.01 }, 60, 5, 20_000);
    const ratio = estimateChangeRate(e, 0.003) / 0.03;
    expect(ratio).toBeGreaterThan(0.9);
    expect(ratio).toBeLessThan(1.1);
  });

  it('converges to the true rate from evenly spaced fetches, within 3 % for 20,000 fetches, whatever the prior', () => {
    const rng = Rng.seeded(11);
    for (const [rate, interval] of [
      [0.5, 1],
      [0.5, 4],
      [0.05, 10],
      [0.001, 300],
    ] as const) {
      const e = poissonEvidence(rng, rate, interval, 20_000, Infinity);
      for (const prior of [rate * 100, rate, rate / 100]) {
        const ratio = estimateChangeRate(e, prior) / rate;
        expect(Math.abs(ratio - 1), `rate ${rate}, interval ${interval}, prior ${prior}: ratio ${ratio}`).toBeLessThan(0.03);
      }
    }
  });

  it('keeps the short unchanged fetches of unevenly spaced ones short and takes the spread of the changed ones: near the rate', () => {
    const rng = Rng.seeded(12);
    /** The estimate that takes every interval as the mean of all: −ln(q)/m̄. */
    const meanIntervalRate = (e: FetchEvidence) => {
      const fetches = e.changedFetches + e.unchangedFetches;
      return -Math.log(e.unchangedFetches / fetches) / ((e.changedIntervalSec + e.unchangedIntervalSec) / fetches);
    };
    for (const shape of [1, 2, 4]) {
      for (const [rate, interval] of [
        [0.5, 1],
        [0.5, 4],
        [0.02, 30],
      ] as const) {
        const e = poissonEvidence(rng, rate, interval, 40_000, shape);
        const ratio = estimateChangeRate(e, rate / 10) / rate;
        // The changed intervals taken at their mean, their spread unknown: low where they spread (0.82 at shape 1, λm̄ = 2).
        const atMean = estimateChangeRate({ ...e, changedIntervalSqSec: 0 }, rate / 10) / rate;
        const label = `shape ${shape}, rate ${rate}, interval ${interval}: ratio ${ratio}, at the mean ${atMean}`;
        expect(ratio, label).toBeGreaterThan(0.95);
        expect(ratio, label).toBeLessThan(1.03);
        expect(atMean, label).toBeLessThanOrEqual(ratio);
        if (shape === 1 && interval === 4) expect(atMean, label).toBeLessThan(0.85);
        expect(ratio - meanIntervalRate(e) / rate, label).toBeGreaterThan(0.02);
      }
    }
  });

  it("does not let a busy book's fetches seconds after another set its rate", () => {
    // A book changing every 2.5 s, fetched every 14 s and a fifth of the time 2 s after the fetch before.
    const rng = Rng.seeded(13);
    const e = evidenceAt(rng, 0.4, 20_000, () => (rng.next() < 0.2 ? 2 : 14));
    expect(estimateChangeRate(e, 0.04) / 0.4).toBeGreaterThan(0.82);
    expect(estimateChangeRate({ ...e, changedIntervalSqSec: 0 }, 0.04) / 0.4).toBeLessThan(0.8);
    const fetches = e.changedFetches + e.unchangedFetches;
    const meanSec = (e.changedIntervalSec + e.unchangedIntervalSec) / fetches;
    expect(-Math.log(e.unchangedFetches / fetches) / meanSec / 0.4).toBeLessThan(0.6);
  });

  it('gives the prior alone, and weighs a far-off prior as a fetch or two, not as its interval', () => {
    const none = { ...NO_EVIDENCE };
    expect(estimateChangeRate(none, 0.25)).toBeCloseTo(0.25, 9);
    // 40 fetches a second apart of a book changing every 2 s, in the expected shares: 0.39 of them changed.
    const changed = Math.round(40 * -Math.expm1(-0.5));
    const e = {
      ...NO_EVIDENCE,
      changedFetches: changed,
      unchangedFetches: 40 - changed,
      changedIntervalSec: changed,
      unchangedIntervalSec: 40 - changed,
    };
    const alone = -Math.log((40 - changed) / 40);
    // A prior a hundred times too low moves the estimate by about what one more unchanged fetch would.
    const low = estimateChangeRate(e, 0.005);
    expect(low / alone).toBeGreaterThan(0.9);
    expect(low / alone).toBeLessThan(1);
    expect(estimateChangeRate(e, 50) / alone).toBeLessThan(1.15);
  });

  it('takes a market whose every blind fetch found a change at its prior, or at the rate those fetches bound it from below', () => {
    // 20 fetches 10 s apart, every one changed: even odds at b = −ln(1 − 2^(−1/20))/10, about 0.34/s.
    const e = { ...NO_EVIDENCE, changedFetches: 20, changedIntervalSec: 200, changedIntervalSqSec: 2000 };
    const bound = -Math.log(1 - 2 ** (-1 / 20)) / 10;
    expect(bound).toBeCloseTo(0.34, 2);
    expect(estimateChangeRate(e, 0.4)).toBe(0.4);
    expect(estimateChangeRate(e, 0.05)).toBeCloseTo(bound, 12);
    // One unchanged fetch 2 s after another says more: the likelihood has its maximum, above the prior.
    const withUnchanged = { ...e, unchangedFetches: 1, unchangedIntervalSec: 2 };
    expect(estimateChangeRate(withUnchanged, 0.4)).toBeGreaterThan(0.4);
  });

  it('leaves the prior where the fetches find no change in the share it gives', () => {
    const q = Math.exp(-0.2 * 5);
    const e = {
      ...NO_EVIDENCE,
      changedFetches: 1e6 * (1 - q),
      unchangedFetches: 1e6 * q,
      changedIntervalSec: 5e6 * (1 - q),
      unchangedIntervalSec: 5e6 * q,
    };
    expect(estimateChangeRate(e, 7)).toBeCloseTo(0.2, 4);
  });
});

describe('intervalShape', () => {
  /** Evidence of 300 markets of Zipf rates, each fetched `perMarket` times at a mean interval of its own. */
  function world(seed: number, shape: number, perMarket: number): FetchEvidence[] {
    const rng = Rng.seeded(seed);
    return Array.from({ length: 300 }, (_, i) => poissonEvidence(rng, 0.5 / (i + 1), 2 + (i % 7), perMarket, shape));
  }

  it('finds evenly spaced fetches even', () => {
    expect(intervalShape(world(21, Infinity, 200))).toBe(Infinity);
    expect(intervalShape([])).toBe(Infinity);
  });

  it('recovers the shape of gamma-distributed intervals from many markets', () => {
    for (const shape of [1, 2, 4]) {
      const fitted = intervalShape(world(22 + shape, shape, 400));
      expect(fitted / shape, `shape ${shape}: fitted ${fitted}`).toBeGreaterThan(0.8);
      expect(fitted / shape, `shape ${shape}: fitted ${fitted}`).toBeLessThan(1.25);
    }
  });
});

describe('freshShare', () => {
  it('is the share of time fresh under gamma-distributed intervals: below the even G, equal as the shape grows', () => {
    // Exponential intervals (shape 1) of mean 1/f: E[1 − e^(−λΔ)] = x/(1 + x), so the share is 1/(1 + x).
    expect(freshShare(0.5, 0.25, 1)).toBeCloseTo(1 / 3, 9);
    expect(freshShare(0.5, 0.25, 1e9)).toBeCloseTo(freshShare(0.5, 0.25), 6);
    expect(freshShare(0.5, 0.25, 2)).toBeLessThan(freshShare(0.5, 0.25));
    // Against a replay: the mean of (1 − e^(−λΔ))/λ over drawn intervals, over their mean.
    const rng = Rng.seeded(41);
    let fresh = 0;
    let time = 0;
    for (let k = 0; k < 200_000; k++) {
      const d = intervalOf(rng, 2, 3);
      fresh += -Math.expm1(-0.4 * d) / 0.4;
      time += d;
    }
    expect(freshShare(0.4, 0.5, 3)).toBeCloseTo(fresh / time, 2);
  });
});
