/**
 * Applies the record-level faults to clean wire JSON on its way out: malformed records (only
 * inside lists: `data` arrays and embedded markets), drifted shapes (everywhere) and null books.
 * They apply on top of the shape profile: a drift a record's shape already has is a no-op.
 */
import type { EventBody, MarketBody, OrderBookBody } from '../shapes/renderBodies.js';
import { unitHash } from '../world/prng.js';
import { driftBook, driftEvent, driftMarket } from './drift.js';
import type { FaultSettings } from './faultSettings.js';
import { eventDefect, malformEvent, malformMarket, marketDefect } from './malform.js';

type Json = Record<string, unknown>;

export interface ShapeContext {
  seed: number;
  faults: Readonly<FaultSettings>;
}

const picked = (ctx: ShapeContext, what: string, id: string, rate: number) => rate > 0 && unitHash(ctx.seed, what, id) < rate;

export function shapeMarketRecord(ctx: ShapeContext, market: MarketBody, inList: boolean): Json {
  let json = market as unknown as Json;
  const { faults, seed } = ctx;
  if (picked(ctx, 'drift', market.marketId, faults.driftRate)) json = driftMarket(json, new Set(faults.driftKinds), seed);
  if (inList && picked(ctx, 'malformed', market.marketId, faults.malformedRate))
    json = malformMarket(json, marketDefect(seed, market.marketId));
  return json;
}

export function shapeEventRecord(ctx: ShapeContext, event: EventBody, provider: string, inList: boolean): Json {
  const { faults, seed } = ctx;
  let json = event as unknown as Json;
  if (event.markets) json.markets = event.markets.map((m) => shapeMarketRecord(ctx, m, true));
  if (picked(ctx, 'drift', event.eventId, faults.driftRate)) json = driftEvent(json, new Set(faults.driftKinds), seed, provider);
  if (inList && picked(ctx, 'malformed', event.eventId, faults.malformedRate)) json = malformEvent(json, eventDefect(seed, event.eventId));
  return json;
}

/** `bookVersion` makes a null-book fault last until the market trades, like a real empty book. */
export function shapeBook(ctx: ShapeContext, marketId: string, bookVersion: number, book: OrderBookBody | null): Json | null {
  if (book === null) return null;
  if (picked(ctx, 'nullbook', `${marketId}#${bookVersion}`, ctx.faults.nullBookRate)) return null;
  if (picked(ctx, 'drift', marketId, ctx.faults.driftRate)) return driftBook(book, new Set(ctx.faults.driftKinds));
  return book as unknown as Json;
}
