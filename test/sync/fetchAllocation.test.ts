import { describe, expect, it } from 'vitest';

import { Rng } from '../../src/simulator/world/prng.js';
import { freshShare, signalledFreshShare } from '../../src/sync/fetchAllocation.js';
import { intervalOf } from '../helpers/intervalOf.js';

/**
 * A simulated book over `horizonSec`, fetched as the sweep fetches it: changes as a Poisson
 * process of rate `ratePerSec`, each told by a signal with probability `toldShare`; after each
 * fetch, a blind one an interval of mean `blindMeanSec` later (evenly spaced, or gamma of a whole
 * shape), and a signalled one a lag of mean `lag.sec` (exponential or fixed) after the first told
 * change since, whichever comes first. The share of the time it is fresh (no change since the last
 * fetch), its fetches a second, and its signalled fetches a second.
 */
function simulated(
  rng: Rng,
  book: { ratePerSec: number; toldShare: number },
  lag: { sec: number; fixed: boolean },
  blindMeanSec: number,
  shape: number,
  horizonSec: number,
): { share: number; fetchesPerSec: number; signalledPerSec: number } {
  let [t, fresh, fetches, signalled] = [0, 0, 0, 0];
  let nextChange = rng.exponential() / book.ratePerSec;
  let nextBlind = rng.next() * intervalOf(rng, blindMeanSec, shape);
  let nextSignalled = Infinity;
  let isFresh = true;
  while (t < horizonSec) {
    const next = Math.min(nextChange, nextBlind, nextSignalled, horizonSec);
    if (isFresh) fresh += next - t;
    t = next;
    if (t >= horizonSec) break;
    if (t === nextChange) {
      isFresh = false;
      // The first told change since the last fetch sets the signalled fetch; later ones find it set.
      if (nextSignalled === Infinity && rng.next() < book.toldShare)
        nextSignalled = t + (lag.fixed ? lag.sec : rng.exponential() * lag.sec);
      nextChange = t + rng.exponential() / book.ratePerSec;
      continue;
    }
    fetches += 1;
    if (t === nextSignalled) signalled += 1;
    isFresh = true;
    nextBlind = t + intervalOf(rng, blindMeanSec, shape);
    nextSignalled = Infinity;
  }
  return { share: fresh / horizonSec, fetchesPerSec: fetches / horizonSec, signalledPerSec: signalled / horizonSec };
}

describe('signalledFreshShare', () => {
  it('is the blind share without a signalled fetch, f/λ when every fetch is signalled, and never above 1', () => {
    for (const shape of [Infinity, 3, 1]) {
      expect(signalledFreshShare(0.02, 0.05, 0, 5, shape)).toBe(freshShare(0.02, 0.05, shape));
      // A lag as long as the mean interval: the signals come too late to cut an interval short.
      expect(signalledFreshShare(0.02, 0.05, 0.03, 20, shape)).toBe(freshShare(0.02, 0.05, shape));
      expect(signalledFreshShare(0.1, 0.04, 0.04, 13, shape)).toBeCloseTo(0.4, 12);
      expect(signalledFreshShare(0.001, 0.04, 0.039, 1, shape)).toBeLessThanOrEqual(1);
    }
  });

  it('rises with the share of the fetches a signal brought forward, and falls as their lag grows', () => {
    const bySignalled = [0, 0.01, 0.02, 0.03, 0.039].map((signalled) => signalledFreshShare(0.1, 0.04, signalled, 5, 2));
    for (let i = 1; i < bySignalled.length; i++) expect(bySignalled[i]).toBeGreaterThan(bySignalled[i - 1]!);
    const byLag = [0, 1, 3, 10, 20].map((lagSec) => signalledFreshShare(0.1, 0.04, 0.02, lagSec));
    for (let i = 1; i < byLag.length; i++) expect(byLag[i]).toBeLessThan(byLag[i - 1]!);
  });

  it('is the share of the time a simulated book is fresh: within 0.01 with evenly spaced blind intervals, 0.02 and 0.03 with gamma ones of shape 2 and 1', () => {
    const rng = Rng.seeded(21);
    for (const shape of [Infinity, 2, 1])
      for (const [ratePerSec, toldShare, lagSec, blindMeanSec] of [
        [0.4, 0.1, 12, 10],
        [0.1, 0.5, 13, 60],
        [0.02, 0.5, 5, 60],
        [0.002, 0.7, 30, 600],
        [0.1, 0.5, 1, 2],
        [0.25, 0.8, 20, 50],
      ] as const) {
        const horizonSec = 20_000 / Math.min(ratePerSec, 1 / blindMeanSec);
        for (const fixed of [false, true]) {
          const book = simulated(rng, { ratePerSec, toldShare }, { sec: lagSec, fixed }, blindMeanSec, shape, horizonSec);
          const share = signalledFreshShare(ratePerSec, book.fetchesPerSec, book.signalledPerSec, lagSec, shape);
          const label = `shape ${shape}, rate ${ratePerSec}, told ${toldShare}, lag ${lagSec}${fixed ? ' fixed' : ''}, blind every ${blindMeanSec} s`;
          expect(Math.abs(share - book.share), label).toBeLessThan(shape === Infinity ? 0.01 : shape === 2 ? 0.02 : 0.03);
        }
      }
  });
});
