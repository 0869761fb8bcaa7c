/**
 * The instants the simulator serves, from the world's simulated ones.
 *
 * A world run against the wall clock at a speed-up (`npm run demo`: 60 simulated seconds per real
 * second) reaches a simulated instant t at the real instant startSec + (t - startSec) / speed. That
 * real instant is what it serves for t: a close, a settlement or a trade is dated when, on the wall
 * clock, it happened, so it is never later than the poll that sees it, and the lags an analysis
 * measures against our own observation times (analytics.market_resolutions) hold. Serving the
 * simulated instants instead dated a settlement days after the poll that saw it (a lag of -371307
 * seconds after one demo run). The other cure, flagging the world as simulated in the analytics
 * views, would have left those rows wrong and taught the public schema about a test double. So the
 * world keeps its own dynamics (rates per simulated hour, lags in simulated seconds, every world
 * test unchanged) and only what crosses the wire is compressed: its durations appear `speed` times
 * shorter, its dates are the wall clock's. At speed 1 (a manual clock, or real time) nothing changes.
 */
import type { WorldState } from './worldState.js';

/** The served Unix seconds of simulated instant `simSec`: whole seconds, never later than the wall clock's. */
export function servedSec(state: WorldState, simSec: number): number {
  const { startSec, speed } = state.served;
  if (speed === 1) return simSec;
  return Math.floor(startSec + (simSec - startSec) / speed);
}

/** The served instant of `simSec` in milliseconds (for renderings with sub-second precision). */
export function servedMs(state: WorldState, simSec: number): number {
  const { startSec, speed } = state.served;
  if (speed === 1) return simSec * 1000;
  return Math.floor((startSec + (simSec - startSec) / speed) * 1000);
}

/**
 * The simulated instant of a served one (a `since` a client sends back), rounded down: what is
 * after it in the world includes everything served after `sec`.
 */
export function simSecOfServed(state: WorldState, sec: number): number {
  const { startSec, speed } = state.served;
  if (speed === 1) return sec;
  return Math.floor(startSec + (sec - startSec) * speed);
}
