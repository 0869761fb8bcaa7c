import { describe, expect, it } from 'vitest';

import { Rng } from '../../src/simulator/world/prng.js';
import { freshShare, toldFreshShare } from '../../src/sync/fetchAllocation.js';
import { intervalOf } from '../helpers/intervalOf.js';

/**
 * A simulated book over `horizonSec`: untold changes as a Poisson process, told ones as another,
 * each fetched a lag of mean `lag.sec` after it (exponential or fixed), and blind fetches each
 * an interval of mean `blindMeanSec` (evenly spaced, or gamma of a whole shape) after the last
 * fetch of either kind, as the sweep plans them. The share of the time it is fresh (no change
 * since the last fetch) and its fetches a second.
 */
function simulated(
  rng: Rng,
  rates: { untold: number; told: number },
  lag: { sec: number; fixed: boolean },
  blindMeanSec: number,
  shape: number,
  horizonSec: number,
): { share: number; fetchesPerSec: number } {
  const interval = () => intervalOf(rng, blindMeanSec, shape);
  const changes: number[] = [];
  const toldFetches: number[] = [];
  for (let t = rng.exponential() / rates.untold; t < horizonSec; t += rng.exponential() / rates.untold) changes.push(t);
  for (let t = rng.exponential() / rates.told; t < horizonSec; t += rng.exponential() / rates.told) {
    changes.push(t);
    toldFetches.push(t + (lag.fixed ? lag.sec : rng.exponential() * lag.sec));
  }
  changes.sort((a, b) => a - b);
  toldFetches.sort((a, b) => a - b);
  let [c, f, fetches, fresh, since] = [0, 0, 0, 0, 0];
  let isFresh = true;
  let nextBlind = rng.next() * interval();
  for (;;) {
    const t = Math.min(changes[c] ?? Infinity, toldFetches[f] ?? Infinity, nextBlind, horizonSec);
    if (isFresh) fresh += t - since;
    since = t;
    if (t >= horizonSec) break;
    if (t === changes[c]) {
      c += 1;
      isFresh = false;
    } else {
      if (t === toldFetches[f]) f += 1;
      fetches += 1;
      isFresh = true;
      nextBlind = t + interval();
    }
  }
  return { share: fresh / horizonSec, fetchesPerSec: fetches / horizonSec };
}

describe('toldFreshShare', () => {
  it('is the fresh share of the untold changes alone when told ones are stored at once, with no told change that of the blind fetches', () => {
    for (const shape of [Infinity, 3, 1]) {
      // Stored at once, a told change is a fetch at once: nothing untold, always fresh.
      expect(toldFreshShare(0, 0.03, 0, 0.05, shape)).toBe(1);
      expect(toldFreshShare(0.02, 0, 5, 0.05, shape)).toBe(freshShare(0.02, 0.05, shape));
      // No blind fetch (the told changes' fetches are all of them): a Poisson process of their rate.
      expect(toldFreshShare(0.02, 0.03, 0, 0.03, shape)).toBeCloseTo(0.03 / 0.05, 12);
    }
  });

  it('falls as the lag grows', () => {
    const shares = [0, 1, 3, 10, 30, 100, 300].map((lagSec) => toldFreshShare(0.01, 0.01, lagSec, 1 / 60, 2));
    for (let i = 1; i < shares.length; i++) expect(shares[i]).toBeLessThan(shares[i - 1]!);
  });

  it('is the share of the time a simulated book is fresh, within 0.02 (the spread of the simulation); within 0.03 with fixed lags', () => {
    const rng = Rng.seeded(21);
    for (const shape of [Infinity, 2, 1])
      for (const [untold, told, lagSec, blindMeanSec] of [
        [0.4, 0.03, 12, 10],
        [0.02, 0.02, 5, 60],
        [0.002, 0.005, 30, 600],
        [0.1, 0.1, 1, 2],
        [0.05, 0.2, 20, 50],
      ] as const) {
        const horizonSec = 4000 / Math.min(untold, told, 1 / blindMeanSec);
        const label = `shape ${shape}, untold ${untold}, told ${told}, lag ${lagSec}, blind every ${blindMeanSec} s`;
        for (const fixed of [false, true]) {
          const book = simulated(rng, { untold, told }, { sec: lagSec, fixed }, blindMeanSec, shape, horizonSec);
          const share = toldFreshShare(untold, told, lagSec, book.fetchesPerSec, shape);
          expect(Math.abs(share - book.share), `${label}${fixed ? ', fixed lags' : ''}`).toBeLessThan(fixed ? 0.03 : 0.02);
        }
      }
  });
});
