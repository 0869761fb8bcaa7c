/**
 * Today's event: no multipleWinners, series, winner, isTrending, isRecommended or tvlDollars
 * (gone since 2026-03-03); tags, a richer metadata, micro-USD volumes as integer strings, and a
 * beginAt that is sometimes fractional. `provider` only on the events of other providers than
 * polymarket (the live recordings of polymarket's events have none).
 */
import type { LiveEvent } from '../../wire/liveShapes.js';
import { MICRO_PER_USD } from '../world/money.js';
import { unitHash } from '../world/prng.js';
import { servedSec } from '../world/servedTime.js';
import type { SimEvent, SimMarket } from '../world/simTypes.js';
import { volume24hr } from '../world/volume24hr.js';
import { isLive } from '../world/wire.js';
import type { WorldState } from '../world/worldState.js';
import { slugOf } from './fakeIdentifiers.js';
import { flavorEvent } from './liveFlavors.js';

/** Share of events whose beginAt carries milliseconds ("1784692980.306"). */
const FRACTIONAL_BEGIN_SHARE = 0.5;

/**
 * Whole dollars of the event's volume, in micro-USD: its markets' `pricing.volume` are whole
 * dollars each, so this is their sum x 1e6, give or take $1 a market (each market drops its cents).
 * Rounding the event total (not summing the rounded markets) keeps the volume order of listings.
 */
function volumeUsd(e: SimEvent): number {
  return Math.floor(e.volumeMicroUsd / MICRO_PER_USD) * MICRO_PER_USD;
}

function beginAt(state: WorldState, e: SimEvent): string | null {
  if (e.beginAtSec === null) return null;
  const h = unitHash(state.seed, 'begin-ms', e.eventId);
  const beginSec = servedSec(state, e.beginAtSec);
  if (h >= FRACTIONAL_BEGIN_SHARE) return String(beginSec);
  const ms = 1 + Math.floor((h / FRACTIONAL_BEGIN_SHARE) * 999);
  // String() of the sum gives the shortest form, as a JSON number turned string would: ".306", ".05".
  return String(beginSec + ms / 1000);
}

const closeTimeSec = (markets: readonly SimMarket[]) => Math.max(...markets.map((m) => m.closeTimeSec));

/** Without `markets`; the caller adds them (each in its own record shape). */
export function renderLiveEvent(state: WorldState, e: SimEvent): LiveEvent {
  const live = isLive(e, state.nowSec);
  const markets = e.marketIds.map((id) => state.marketsById.get(id)!);
  return flavorEvent(state, e, {
    eventId: e.eventId,
    ...(e.provider === 'polymarket' ? {} : { provider: e.provider }),
    isActive: e.isActive,
    isLive: live,
    category: e.category,
    subcategory: e.subcategory,
    tags: [...new Set([e.category, e.subcategory, e.series].filter((t) => t !== ''))],
    metadata: {
      slug: slugOf(e.title),
      title: e.title,
      isLive: live,
      series: e.series,
      eventId: e.eventId,
      imageUrl: `https://images.sim.invalid/events/${encodeURIComponent(e.eventId)}.png`,
      subtitle: e.subtitle,
      closeTime: new Date(servedSec(state, closeTimeSec(markets)) * 1000).toISOString(),
    },
    volumeUsd: String(volumeUsd(e)),
    volume24hr: String(volume24hr(state, e)),
    beginAt: beginAt(state, e),
    closeCondition: e.closeCondition,
    rulesPdf: '',
    sportsMarketGroups: [],
  });
}
