import { describe, expect, it } from 'vitest';

import { World } from '../../src/simulator/World.js';

/*
 * The demo's world at its speed-up, through sync (no close, settlement or trade dated after the poll
 * that saw it, no negative lag) is checked on the run of test/docs/examples.test.ts: one demo run
 * serves both.
 */
describe('a world served at a speed-up', () => {
  const startSec = 1_900_000_000;
  const world = () =>
    new World({ seed: 3, markets: 60, shape: 'live', startSec, servedSpeed: 60, earlyCloses: { events: 4, withinSec: 3600 } });

  it('serves each instant as the real one at which the world reaches it, and maps a served `since` back', () => {
    const w = world();
    w.step(3600);
    const closed = w.markets().filter((m) => m.status === 'closed' && m.closeTimeSec > startSec);
    expect(closed.length).toBeGreaterThanOrEqual(4);
    for (const m of closed) {
      const body = w.marketBody(m.marketId) as { closeTime: number };
      expect(body.closeTime).toBe(Math.floor(startSec + (m.closeTimeSec - startSec) / 60));
      // An hour of the world is a minute of the wall clock.
      expect(body.closeTime).toBeLessThanOrEqual(startSec + 60);
    }
    expect(w.servedSec(w.nowSec)).toBe(startSec + 60);
    expect(w.simSecOfServed(startSec + 30)).toBe(startSec + 1800);
  });

  it('brings the early closes into the first `withinSec`, leaving the world without them as it was', () => {
    const early = world();
    const plain = new World({ seed: 3, markets: 60, shape: 'live', startSec });
    const moved = early.markets().filter((m) => m.closeTimeSec !== plain.market(m.marketId)!.closeTimeSec);
    expect(new Set(moved.map((m) => m.eventId)).size).toBe(4);
    expect(moved.every((m) => m.closeTimeSec > startSec && m.closeTimeSec <= startSec + 3600)).toBe(true);
    expect(early.markets().map((m) => m.marketId)).toEqual(plain.markets().map((m) => m.marketId));
    expect(() => new World({ earlyCloses: { events: 0, withinSec: 60 } })).toThrow(/earlyCloses.events/);
  });
});
