/**
 * The mutable state every world module works on. Kept as plain data so creation, lifecycle,
 * trading and stepping can live in separate files; `World` (world.ts) is the public face.
 */
import { IdAllocator } from './idAllocator.js';
import { Rng } from './prng.js';
import type { SimEvent, SimFill, SimMarket } from './simTypes.js';
import { TimeQueue } from './timeQueue.js';
import type { WireShape } from './wireShape.js';

export interface WorldSettings {
  /** Average trades per open market per simulated hour; each trade moves one market's price. */
  tradesPerMarketHour: number;
  /** New events per simulated day. */
  newEventsPerDay: number;
  /** Delay between a market's close and its settlement, seconds, [min, max]. */
  settlementLagSec: readonly [number, number];
  /** Share of new events given a category outside the spec's list (0 in a spec world). */
  undocumentedCategoryShare: number;
}

/** Heavy-tailed activity (activity.ts), when the world was asked for it: it then drives the changes of open markets. */
export interface ActivityHook {
  /** Applies the changes due by `untilSec`; adds the markets that changed to `traded`. */
  advance(state: WorldState, untilSec: number, traded: Set<string>): void;
  /** An event's traded dollars over a day at its markets' rates, micro-USD. */
  volume24hrMicroUsd(state: WorldState, e: SimEvent): number;
}

/** How the world's time maps to the served one (servedTime.ts): simulated seconds per real second, from `startSec` on. */
export interface ServedClock {
  readonly startSec: number;
  readonly speed: number;
}

export interface WorldState {
  readonly seed: number;
  /** The shape profile the world renders its bodies in. */
  readonly shape: WireShape;
  readonly rng: Rng;
  readonly ids: IdAllocator;
  nowSec: number;
  /** In creation order. */
  readonly events: SimEvent[];
  readonly eventsById: Map<string, SimEvent>;
  readonly marketsById: Map<string, SimMarket>;
  /** Open markets, for O(1) random picks; each market knows its index (swap-remove). */
  readonly openMarkets: SimMarket[];
  readonly queue: TimeQueue<'close' | 'settle'>;
  readonly settings: WorldSettings;
  /** Bumped by every change; derived caches (listings) are valid for one version. */
  version: number;
  /** Fractional trades / new events owed by previous steps, so small steps add up. */
  tradeCarry: number;
  spawnCarry: number;
  /** The latest fills, oldest first (fills.ts), drawn from their own stream. */
  readonly fills: SimFill[];
  readonly fillRng: Rng;
  /** Fills made since creation. */
  fillCount: number;
  /** Set when the world has heavy-tailed activity; absent in the default world. */
  activity?: ActivityHook;
  /** How its instants are served (servedTime.ts); speed 1 serves them as they are. */
  readonly served: ServedClock;
}

export function newWorldState(seed: number, shape: WireShape, nowSec: number, settings: WorldSettings, servedSpeed = 1): WorldState {
  const rng = Rng.seeded(seed);
  return {
    seed,
    shape,
    rng,
    ids: new IdAllocator(Rng.seeded(seed ^ 0x5bd1e995)),
    nowSec,
    events: [],
    eventsById: new Map(),
    marketsById: new Map(),
    openMarkets: [],
    queue: new TimeQueue(),
    settings,
    version: 0,
    tradeCarry: 0,
    spawnCarry: 0,
    fills: [],
    fillRng: Rng.seeded(seed ^ 0x2f6b3c1d),
    fillCount: 0,
    served: { startSec: nowSec, speed: servedSpeed },
  };
}

export function requireEvent(state: WorldState, eventId: string): SimEvent {
  const event = state.eventsById.get(eventId);
  if (!event) throw new RangeError(`unknown event ${JSON.stringify(eventId)}`);
  return event;
}

export function requireMarket(state: WorldState, marketId: string): SimMarket {
  const market = state.marketsById.get(marketId);
  if (!market) throw new RangeError(`unknown market ${JSON.stringify(marketId)}`);
  return market;
}
