import { MICRO_PER_USD } from './money.js';
import { unitHash } from './prng.js';
import type { SimEvent } from './simTypes.js';
import type { WorldState } from './worldState.js';

const DAY_SEC = 86_400;

/**
 * An event's `volume24hr`, micro-USD. The world keeps no 24 h window: a stable share (2-22 %) of
 * its whole-dollar volume while the event traded in the last day. What listings sorted by
 * volume24hr rank by.
 */
export function volume24hr(state: WorldState, e: SimEvent): number {
  // A world with heavy-tailed activity trades at known rates: its day's volume follows them.
  if (state.activity) return state.activity.volume24hrMicroUsd(state, e);
  if (state.nowSec - e.lastTradeSec >= DAY_SEC) return 0;
  const share = 0.02 + 0.2 * unitHash(state.seed, 'volume24hr', e.eventId);
  return Math.floor(Math.floor(e.volumeMicroUsd / MICRO_PER_USD) * share) * MICRO_PER_USD;
}
