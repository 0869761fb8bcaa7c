import { describe, expect, it } from 'vitest';

import { firstPlanSec, PLAN_LEAST_FETCHES, planEndMs, REPLAN_EVERY_SEC } from '../../src/sync/planEndMs.js';

describe('planEndMs: where a paced sweep plans again', () => {
  const span = REPLAN_EVERY_SEC * 1000;
  // Fast enough that REPLAN_EVERY_SEC holds PLAN_LEAST_FETCHES.
  const fast = (2 * PLAN_LEAST_FETCHES) / REPLAN_EVERY_SEC;

  it('every REPLAN_EVERY_SEC while more than half a span would be left after the plan', () => {
    expect(planEndMs(0, 58_000, 0, fast)).toBe(span);
    expect(planEndMs(58_000 - 1.5 * span - 1, 58_000, 0, fast)).toBe(58_000 - 0.5 * span - 1);
  });

  it('to the hand-over when less would be left: no plan shorter than half a span', () => {
    expect(planEndMs(58_000 - 1.5 * span, 58_000, 0, fast)).toBe(58_000);
    expect(planEndMs(57_000, 58_000, 0, fast)).toBe(58_000);
  });

  it('over a longer span when planning takes more than a twentieth of it', () => {
    expect(planEndMs(0, 600_000, 1_000, fast)).toBe(20_000);
    expect(planEndMs(0, 600_000, 1_000, fast, { everySec: 1, leastFetches: 1 })).toBe(20_000);
    expect(planEndMs(0, 600_000, 10, fast, { everySec: 1, leastFetches: 1 })).toBe(1_000);
  });

  it('over a longer span when the sweep is slow: a plan holds PLAN_LEAST_FETCHES', () => {
    // A fetch a second (60 requests a minute): 50 s, and a sweep a minute is one plan.
    expect(planEndMs(0, 600_000, 0, 1)).toBe(PLAN_LEAST_FETCHES * 1000);
    expect(planEndMs(0, 58_000, 0, 1)).toBe(58_000);
  });

  it("firstPlanSec: the horizon `plan` replays, the sweep's first plan", () => {
    expect(firstPlanSec(60, fast)).toBe(REPLAN_EVERY_SEC);
    // To the hand-over, 2 s before the next tick: one plan.
    expect(firstPlanSec(60, 1)).toBe(58);
    expect(firstPlanSec(10, fast)).toBe(9);
  });
});
