/** GET /markets/{marketId} and /orderbook/{marketId}. */
import { shapeBook, shapeMarketRecord } from '../faults/shapeRecords.js';
import { notFound, serverError } from './httpErrors.js';
import type { RouteContext } from './routeContext.js';

export function getMarket(ctx: RouteContext) {
  const id = ctx.params[0]!;
  const market = ctx.world.marketBody(id, { detail: true });
  if (!market) throw notFound(`Market ${id} not found`, 'marketId');
  return shapeMarketRecord(ctx.recordFaults, market, false);
}

export function getOrderBook(ctx: RouteContext) {
  const id = ctx.params[0]!;
  const market = ctx.world.market(id);
  if (!market) throw notFound(`Market ${id} not found`, 'marketId');
  // The book service sits behind its own upstream, which fails on its own.
  if (ctx.faults.drawOrderbookError()) throw serverError(502);
  return shapeBook(ctx.recordFaults, id, market.bookVersion, ctx.world.orderBookBody(id)!);
}
