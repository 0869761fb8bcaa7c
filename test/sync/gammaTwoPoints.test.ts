import { describe, expect, it } from 'vitest';

import { gammaTwoPoints } from '../../src/sync/gammaTwoPoints.js';

describe('gammaTwoPoints', () => {
  it("matches the gamma law's mean, variance and third central moment", () => {
    for (const [meanSec, shape] of [
      [10, 1],
      [60, 2],
      [25, 11.8],
      [3, 0.5],
    ] as const) {
      const { shortSec, longSec, shortShare } = gammaTwoPoints(meanSec, shape);
      const moment = (power: number, about = 0) => shortShare * (shortSec - about) ** power + (1 - shortShare) * (longSec - about) ** power;
      expect(moment(1)).toBeCloseTo(meanSec, 9);
      // Gamma of shape k and scale θ = m/k: variance kθ², third central moment 2kθ³.
      const scaleSec = meanSec / shape;
      expect(moment(2, meanSec)).toBeCloseTo(shape * scaleSec ** 2, 9);
      expect(moment(3, meanSec)).toBeCloseTo(2 * shape * scaleSec ** 3, 6);
      expect(shortSec).toBeGreaterThan(0);
    }
  });

  it('puts both points at the mean for evenly spaced intervals', () => {
    expect(gammaTwoPoints(42, Infinity)).toEqual({ shortSec: 42, longSec: 42, shortShare: 1 });
  });
});
