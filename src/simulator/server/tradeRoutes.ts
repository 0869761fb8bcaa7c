/** GET /trades: the latest fills, newest first, as many as the live service answers with; no paging. */
import { TRADE_FEED_ROWS } from '../../domain/types.js';
import type { RouteContext } from './routeContext.js';

export function listTrades(ctx: RouteContext) {
  return { data: ctx.world.recentTrades(TRADE_FEED_ROWS) };
}
