/** A gamma law of intervals as two points: `shortSec` with weight `shortShare`, `longSec` with the rest. */
export interface TwoPoints {
  shortSec: number;
  longSec: number;
  shortShare: number;
}

/**
 * The two points that match the first three moments of a gamma law of mean `meanSec` and shape
 * `shape` (the nodes of Gauss–Laguerre quadrature of order two): scale θ = mean/shape, nodes
 * θ·((k + 1) ∓ √(k + 1)). Both at the mean for an infinite shape (evenly spaced). Sums over the two
 * stand for expectations over the law where no closed form is at hand. Pure.
 */
export function gammaTwoPoints(meanSec: number, shape: number): TwoPoints {
  if (!Number.isFinite(shape)) return { shortSec: meanSec, longSec: meanSec, shortShare: 1 };
  const scaleSec = meanSec / shape;
  const a = shape + 1;
  const r = Math.sqrt(a);
  return { shortSec: scaleSec * (a - r), longSec: scaleSec * (a + r), shortShare: (1 + r) / (2 * r) };
}
