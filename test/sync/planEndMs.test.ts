import { describe, expect, it } from 'vitest';

import { planEndMs, REPLAN_EVERY_SEC } from '../../src/sync/sweepOrderBooks.js';

describe('planEndMs: where a paced sweep plans again', () => {
  const span = REPLAN_EVERY_SEC * 1000;

  it('every REPLAN_EVERY_SEC while more than half a span would be left after the plan', () => {
    expect(planEndMs(0, 58_000, 0)).toBe(span);
    expect(planEndMs(58_000 - 1.5 * span - 1, 58_000, 0)).toBe(58_000 - 0.5 * span - 1);
  });

  it('to the hand-over when less would be left: no plan shorter than half a span', () => {
    expect(planEndMs(58_000 - 1.5 * span, 58_000, 0)).toBe(58_000);
    expect(planEndMs(57_000, 58_000, 0)).toBe(58_000);
  });

  it('over a longer span when planning takes more than a twentieth of it', () => {
    expect(planEndMs(0, 600_000, 1_000)).toBe(20_000);
    expect(planEndMs(0, 600_000, 1_000, 1)).toBe(20_000);
    expect(planEndMs(0, 600_000, 10, 1)).toBe(1_000);
  });
});
