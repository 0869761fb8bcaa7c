import { describe, expect, it } from 'vitest';

import { freshShare, toldFreshShare } from '../../src/sync/fetchAllocation.js';

/**
 * The fresh share of a book whose told changes are stored `lagSec` after them, integrated exactly
 * where the intervals' law allows it: evenly spaced (shape ∞, every interval 1/f) and exponential
 * (shape 1, P(interval > a) = e^(−f·a)).
 */
function exactShare(untold: number, told: number, lagSec: number, f: number, shape: 1 | typeof Infinity): number {
  const m = 1 / f;
  const all = untold + told;
  const held = Math.exp(-told * lagSec);
  if (shape === 1) {
    const before = -Math.expm1(-(all + f) * lagSec) / (all + f);
    const after = (held * Math.exp(-(untold + f) * lagSec)) / (untold + f);
    return (before + after) / m;
  }
  const before = -Math.expm1(-all * Math.min(lagSec, m)) / all;
  const after = m > lagSec ? (held * (Math.exp(-untold * lagSec) - Math.exp(-untold * m))) / untold : 0;
  return (before + after) / m;
}

describe('toldFreshShare', () => {
  it('is the fresh share of the untold changes alone when told ones are stored at once, of all of them when never', () => {
    for (const shape of [Infinity, 3, 1]) {
      expect(toldFreshShare(0.02, 0.03, 0, 0.05, shape)).toBeCloseTo(freshShare(0.02, 0.05, shape), 12);
      expect(toldFreshShare(0.02, 0.03, 1e9, 0.05, shape)).toBeCloseTo(freshShare(0.05, 0.05, shape), 12);
      expect(toldFreshShare(0.02, 0, 5, 0.05, shape)).toBe(freshShare(0.02, 0.05, shape));
    }
  });

  it('falls as the lag grows', () => {
    const shares = [0, 1, 3, 10, 30, 100, 300].map((lagSec) => toldFreshShare(0.01, 0.01, lagSec, 1 / 60, 2));
    for (let i = 1; i < shares.length; i++) expect(shares[i]).toBeLessThan(shares[i - 1]!);
  });

  it('stays within 0.06 of the exact integral, and within 0.01 for most books and lags', () => {
    const errors: number[] = [];
    for (const shape of [Infinity, 1] as const)
      for (const intervalSec of [1, 5, 30, 120, 600])
        for (const rate of [0.001, 0.01, 0.1, 0.5])
          for (const toldShare of [0.2, 0.5, 0.9])
            for (const lagSec of [1, 3, 10, 30, 100]) {
              const told = rate * toldShare;
              const untold = rate - told;
              const exact = exactShare(untold, told, lagSec, 1 / intervalSec, shape);
              errors.push(Math.abs(toldFreshShare(untold, told, lagSec, 1 / intervalSec, shape) - exact));
            }
    errors.sort((a, b) => a - b);
    expect(errors.at(-1)).toBeLessThan(0.06);
    expect(errors[Math.floor(errors.length * 0.9)]).toBeLessThan(0.01);
  });
});
