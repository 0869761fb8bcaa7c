import { describe, expect, it } from 'vitest';

import { backoffDelayMs } from '../../../src/retry/backoffDelayMs.js';

const bounds = { baseMs: 500, capMs: 30_000 };

describe('backoffDelayMs (pure)', () => {
  it('is full jitter under min(cap, base * 2^(attempt-1))', () => {
    for (let attempt = 1; attempt <= 12; attempt++) {
      const ceiling = Math.min(30_000, 500 * 2 ** (attempt - 1));
      expect(backoffDelayMs(attempt, bounds, () => 0)).toBe(0);
      expect(backoffDelayMs(attempt, bounds, () => 0.5)).toBe(Math.floor(ceiling / 2));
      const top = backoffDelayMs(attempt, bounds, () => 0.999_999_9);
      expect(top).toBeLessThan(ceiling);
      expect(top).toBeGreaterThanOrEqual(ceiling - 1);
    }
  });

  it('never exceeds the cap, even for huge attempt numbers', () => {
    expect(backoffDelayMs(10_000, bounds, () => 0.999_999_9)).toBeLessThan(30_000);
    expect(Number.isFinite(backoffDelayMs(5000, bounds, () => 0.5))).toBe(true);
  });

  it('stays within bounds whatever the random source returns', () => {
    for (const r of [-1, 1, 2, Number.NaN, Number.POSITIVE_INFINITY]) {
      const delay = backoffDelayMs(3, bounds, () => r);
      expect(delay).toBeGreaterThanOrEqual(0);
      expect(delay).toBeLessThan(2000);
    }
  });

  it('spreads delays over the whole range (jitter, not a fixed schedule)', () => {
    let seed = 42;
    const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
    const delays = Array.from({ length: 1000 }, () => backoffDelayMs(4, bounds, random));
    expect(Math.min(...delays)).toBeLessThan(400);
    expect(Math.max(...delays)).toBeGreaterThan(3600);
    expect(Math.max(...delays)).toBeLessThan(4000);
  });

  it('rejects a nonsensical attempt number', () => {
    expect(() => backoffDelayMs(0, bounds, Math.random)).toThrow(RangeError);
    expect(() => backoffDelayMs(1.5, bounds, Math.random)).toThrow(RangeError);
  });
});
