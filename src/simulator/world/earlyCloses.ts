/**
 * Markets that close early: open events whose markets are all brought forward to close within
 * the world's first minutes or hours, as the closeCondition of every event allows ("or earlier if
 * the outcome is known"). A short run then sees closes, settlements after the world's lag and
 * resolved events, which the initial world (closes days apart) does not give it.
 */
import { Rng } from './prng.js';
import type { WorldState } from './worldState.js';

export interface EarlyCloses {
  /** How many events close early (fewer when fewer are open). */
  events: number;
  /** Their closes are spread evenly over this many simulated seconds from the start. */
  withinSec: number;
}

export function validateEarlyCloses(e: EarlyCloses): EarlyCloses {
  if (!Number.isSafeInteger(e.events) || e.events < 1)
    throw new RangeError(`earlyCloses.events must be a positive integer, got ${e.events}`);
  if (!Number.isSafeInteger(e.withinSec) || e.withinSec < 1) {
    throw new RangeError(`earlyCloses.withinSec must be a positive integer, got ${e.withinSec}`);
  }
  return e;
}

export function bringClosesForward(state: WorldState, options: EarlyCloses): void {
  const { events, withinSec } = validateEarlyCloses(options);
  const startSec = state.nowSec;
  const open = state.events.filter((e) =>
    e.marketIds.every((id) => {
      const m = state.marketsById.get(id)!;
      return m.status === 'open' && m.closeTimeSec > startSec + withinSec;
    }),
  );
  // A stream of its own, so the rest of the world (drawn from state.rng) is the one without this option.
  const chosen = Rng.seeded(state.seed ^ 0x3c6ef372).sample(open, Math.min(events, open.length));
  chosen.forEach((event, i) => {
    const closeSec = startSec + Math.ceil(((i + 1) * withinSec) / chosen.length);
    for (const id of event.marketIds) {
      const market = state.marketsById.get(id)!;
      market.closeTimeSec = closeSec;
      // The entry at the old close goes stale: the market is closed by then.
      state.queue.push({ atSec: closeSec, kind: 'close', id });
    }
  });
  state.version++;
}
