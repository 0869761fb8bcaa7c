/**
 * The bodies the server sends for a record, in the world's shape profile and before faults.
 * 'spec' renders exactly what the simulator always sent; 'live' today's shapes; 'mixed' picks a
 * shape per record. Events have two shapes only: spec-era ('spec', '2026-02') and today's
 * ('2026-03', 'live'), as the fields the live event lost left the OpenAPI spec on 2026-03-03.
 * Markets and books have one per record shape, each market's book in its market's shape.
 */
import type { Market202602, Market202603, OrderBook202603 } from '../../wire/legacyShapes.js';
import type { LiveEvent, LiveMarket, LiveOrderBook } from '../../wire/liveShapes.js';
import type { SpecMarket, SpecOrderBook } from '../../wire/specShapes.js';
import { renderOrderBook } from '../world/orderBook.js';
import type { SimEvent, SimMarket } from '../world/simTypes.js';
import { renderEvent, type RenderEventOptions, renderMarket, type SpecEraEvent } from '../world/wire.js';
import { recordShapeOf } from '../world/wireShape.js';
import type { WorldState } from '../world/worldState.js';
import { orderBook202603, renderMarket202602, renderMarket202603 } from './legacyMarkets.js';
import { renderLiveBook } from './liveBook.js';
import { renderLiveEvent } from './liveEvent.js';
import { renderLiveMarket } from './liveMarket.js';

export type MarketBody = SpecMarket | Market202602 | Market202603 | LiveMarket;
export type EventBody = (Omit<SpecEraEvent, 'markets'> | Omit<LiveEvent, 'markets'>) & { markets?: MarketBody[] };
export type OrderBookBody = SpecOrderBook | OrderBook202603 | LiveOrderBook;

export interface MarketBodyOptions {
  /** As GET /markets/{id} answers it (the live and 2026-02 shapes add `eventId` there). */
  detail: boolean;
}

export function marketBody(state: WorldState, m: SimMarket, opts: MarketBodyOptions): MarketBody {
  switch (recordShapeOf(state.shape, state.seed, m.marketId)) {
    case 'spec':
      return renderMarket(state, m);
    case '2026-02':
      return renderMarket202602(state, m, opts.detail);
    case '2026-03':
      return renderMarket202603(state, m);
    case 'live':
      return renderLiveMarket(state, m, opts);
  }
}

export function eventBody(state: WorldState, e: SimEvent, opts: RenderEventOptions): EventBody {
  // The spec profile goes through the spec renderer alone, so its bytes cannot drift.
  if (state.shape === 'spec') return renderEvent(state, e, opts);
  const own = recordShapeOf(state.shape, state.seed, e.eventId);
  const body: EventBody =
    own === 'spec' || own === '2026-02' ? renderEvent(state, e, { ...opts, includeMarkets: false }) : renderLiveEvent(state, e);
  if (opts.includeMarkets) body.markets = e.marketIds.map((id) => marketBody(state, state.marketsById.get(id)!, { detail: false }));
  return body;
}

/** Null when the market has no book (closed, or no liquidity), in every shape. */
export function orderBookBody(state: WorldState, m: SimMarket): OrderBookBody | null {
  switch (recordShapeOf(state.shape, state.seed, m.marketId)) {
    case 'spec':
    case '2026-02':
      return renderOrderBook(state, m);
    case '2026-03': {
      const book = renderOrderBook(state, m);
      return book && orderBook202603(book);
    }
    case 'live':
      return renderLiveBook(state, m);
  }
}
