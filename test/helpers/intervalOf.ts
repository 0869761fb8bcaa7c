import type { Rng } from '../../src/simulator/world/prng.js';

/** A fetch interval of mean `meanSec`: the mean itself (evenly spaced, shape Infinity) or gamma-distributed of a whole shape. */
export function intervalOf(rng: Rng, meanSec: number, shape: number): number {
  if (!Number.isFinite(shape)) return meanSec;
  let sum = 0;
  for (let k = 0; k < shape; k++) sum += rng.exponential();
  return (sum / shape) * meanSec;
}
