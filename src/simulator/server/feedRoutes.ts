/**
 * GET /events/closed and GET /events/categories, as the service's OpenAPI of 2026-07-05 describes
 * them. Where it is silent: the closed feed pages by `start`/`end` with pages up to the server's
 * `limit` cap (it takes no `limit` of its own), sorted by when each event last changed.
 */
import { provider, renderListed } from './eventRoutes.js';
import { paginate } from './paginate.js';
import type { RouteContext } from './routeContext.js';

/** The feed's default `since`: the last 24 hours. */
const DEFAULT_SINCE_SEC = 24 * 3600;

export function closedEvents(ctx: RouteContext) {
  const q = ctx.query;
  const p = provider(ctx);
  const { world } = ctx;
  // Times cross the wire as served (world/servedTime.ts): `since` is one of them.
  const nowServedSec = world.servedSec(world.nowSec);
  const since = world.simSecOfServed(q.intInRange('since', 1, Number.MAX_SAFE_INTEGER) ?? nowServedSec - DEFAULT_SINCE_SEC);
  const start = q.nonNegativeInt('start');
  const end = q.nonNegativeInt('end');
  const { page, pagination } = paginate(world.closedEvents(p, since), start, end, ctx.maxLimit);
  return { data: renderListed(ctx, page, true), pagination, timestamp: new Date(nowServedSec * 1000).toISOString() };
}

export function eventCategories(ctx: RouteContext) {
  const p = provider(ctx);
  const includeClosed = ctx.query.bool('includeClosed') ?? false;
  return { data: ctx.world.categoryCounts(p, includeClosed) };
}
