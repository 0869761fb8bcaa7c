import { describe, expect, it } from 'vitest';

import { bestForC, bestForFv, type TrueBook } from '../../bench/support/freshness.js';

const WINDOW_SEC = 100;

/** Expected states stored by k evenly spaced fetches of a book of rate λ in the window (bestForC's model). */
function stored(rate: number, k: number): number {
  return k <= 1 ? k : 1 + (k - 1) * (1 - Math.exp((-rate * WINDOW_SEC) / k));
}

function world(rates: readonly number[]): Map<string, TrueBook> {
  return new Map(rates.map((rate, i) => [`M-${i}`, { rate, atMs: [0], keys: ['k'], traded: [false] }]));
}

describe('bestForC', () => {
  it('divides the fetches as the best of every division does', () => {
    const rates = [0.5, 0.05, 0.001];
    for (const fetches of [2, 3, 5, 9]) {
      let best = -1;
      for (let a = 0; a <= fetches; a++)
        for (let b = 0; a + b <= fetches; b++)
          best = Math.max(best, stored(rates[0]!, a) + stored(rates[1]!, b) + stored(rates[2]!, fetches - a - b));
      const alloc = bestForC(world(rates), fetches, WINDOW_SEC);
      const got = rates.reduce((n, rate, i) => n + stored(rate, alloc.get(`M-${i}`)! * WINDOW_SEC), 0);
      expect(got).toBeCloseTo(best, 9);
    }
  });

  it("gives a quiet book its window's fetch before a busy book its second, where the best for Fv does not", () => {
    const rates = [0.05, 0.001, 0.001, 0.001];
    expect([...bestForC(world(rates), 4, WINDOW_SEC).values()].map((f) => f * WINDOW_SEC)).toEqual([1, 1, 1, 1]);
    const fv = [...bestForFv(world(rates), 4, WINDOW_SEC).values()].map((f) => f * WINDOW_SEC);
    expect(fv[0]).toBeGreaterThan(3);
  });
});
