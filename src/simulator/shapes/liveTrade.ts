/**
 * A fill as the trade feed sends it (the service's OpenAPI of 2026-07-05, schema `Trades`, and
 * the row recorded that July): micro-USD amounts as strings, Unix seconds, and the event's and
 * market's titles beside the ids.
 */
import type { LiveTrade } from '../../wire/liveShapes.js';
import { servedSec } from '../world/servedTime.js';
import type { SimFill } from '../world/simTypes.js';
import type { WorldState } from '../world/worldState.js';
import { traderPubkey } from './fakeIdentifiers.js';
import { isTeamMarket } from './liveMarket.js';

export function renderLiveTrade(state: WorldState, fill: SimFill): LiveTrade {
  const event = state.eventsById.get(fill.eventId)!;
  const market = state.marketsById.get(fill.marketId)!;
  const verb = fill.action === 'buy' ? 'Bought' : 'Sold';
  return {
    id: `order-${fill.seq}`,
    ownerPubkey: traderPubkey(state.seed, fill.trader),
    marketId: fill.marketId,
    eventId: fill.eventId,
    message: `${verb} ${fill.side.toUpperCase()} on ${market.title}`,
    timestamp: servedSec(state, fill.atSec),
    action: fill.action,
    side: fill.side,
    eventTitle: event.title,
    marketTitle: market.title,
    amountUsd: String(fill.amountMicroUsd),
    priceUsd: String(fill.priceMicroUsd),
    eventImageUrl: `https://images.sim.invalid/events/${encodeURIComponent(fill.eventId)}.png`,
    isTeamMarket: isTeamMarket(event),
    marketOptions: [
      { label: 'Yes', buyYes: true },
      { label: 'No', buyYes: false },
    ],
  };
}
