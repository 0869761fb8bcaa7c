/**
 * The initial world: events created over the past month across both providers and every
 * concrete category, until exactly `targetMarkets` markets exist.
 */
import { CONCRETE_CATEGORIES, KNOWN_PROVIDERS } from '../../domain/types.js';
import { createEvent } from './createEvent.js';
import { type SimCategory, type SimEventCategory, type SimProvider, UNDOCUMENTED_CATEGORIES } from './simTypes.js';
import type { WorldState } from './worldState.js';

const DAY = 86_400;
/** Initial events are created up to this long before "now". */
const HISTORY_SEC = 30 * DAY;
/** Share of initial events created in the last 24 hours, so `filter=new` has something to show. */
const NEW_SHARE = 0.06;

const PAIRS: ReadonlyArray<readonly [SimProvider, SimCategory]> = KNOWN_PROVIDERS.flatMap((p) =>
  CONCRETE_CATEGORIES.map((c) => [p, c] as const),
);

export function randomProvider(state: WorldState): SimProvider {
  // Polymarket (the default provider) is a little bigger, as upstream.
  return state.rng.chance(0.55) ? 'polymarket' : 'kalshi';
}

export function randomCategory(state: WorldState): SimEventCategory {
  const share = state.settings.undocumentedCategoryShare;
  // Drawn only when on, so a spec world's random stream (and so the world) is as before.
  if (share > 0 && state.rng.chance(share)) return state.rng.pick(UNDOCUMENTED_CATEGORIES);
  return state.rng.pick(CONCRETE_CATEGORIES);
}

export function populate(state: WorldState, targetMarkets: number): void {
  const { rng } = state;
  let markets = 0;
  for (let i = 0; markets < targetMarkets; i++) {
    // The first 14 events cover every (provider, category) pair; the rest are random.
    const [provider, category] = PAIRS[i] ?? [randomProvider(state), randomCategory(state)];
    const ageSec = rng.chance(NEW_SHARE) ? rng.int(0, DAY - 1) : rng.int(0, HISTORY_SEC);
    const remaining = targetMarkets - markets;
    // The last event is trimmed so the total is exact.
    const event = createEvent(state, { provider, category, createdAtSec: state.nowSec - ageSec, maxMarkets: remaining });
    markets += event.marketIds.length;
  }
}
