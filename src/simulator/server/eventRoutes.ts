/**
 * GET /events, /events/{id}, /events/{id}/markets, /events/search, /events/suggested/{pubkey}.
 * Beyond record shapes, a profile that follows the live service (not 'spec') answers as it does:
 * includeMarkets defaults to true, search embeds `markets: []` and adds a pagination, and
 * suggested embeds the full markets.
 */
import { CATEGORIES, DEFAULT_PROVIDER, KNOWN_PROVIDERS } from '../../domain/types.js';
import { shapeEventRecord, shapeMarketRecord } from '../faults/shapeRecords.js';
import { LIVE_PROVIDERS, type SimEvent, type SimProvider } from '../world/simTypes.js';
import { followsLiveService } from '../world/wireShape.js';
import { badRequest, notFound } from './httpErrors.js';
import { paginate } from './paginate.js';
import type { RouteContext } from './routeContext.js';

/** Search `limit` when absent: the spec gives only the bounds 1..20. */
export const DEFAULT_SEARCH_LIMIT = 10;
const MAX_QUERY_CHARS = 200;
/** GET /events `limit`: at most 100 (the service's OpenAPI, 2026-07-05). */
export const MAX_LIMIT = 100;

const live = (ctx: RouteContext) => followsLiveService(ctx.world.shape);
// The spec knew two providers; the live service also takes bisonfi (an empty listing here).
export const provider = (ctx: RouteContext): SimProvider =>
  ctx.query.oneOf<SimProvider>('provider', live(ctx) ? LIVE_PROVIDERS : KNOWN_PROVIDERS) ?? DEFAULT_PROVIDER;

/** 'empty': a `markets: []` key whatever the event has (live search). */
type EmbeddedMarkets = boolean | 'empty';

export function renderListed(ctx: RouteContext, events: readonly SimEvent[], markets: EmbeddedMarkets, isRecommended = false) {
  return events.map((e) => {
    const body = ctx.world.eventBody(e.eventId, { includeMarkets: markets === true, isRecommended })!;
    if (markets === 'empty') body.markets = [];
    return shapeEventRecord(ctx.recordFaults, body, e.provider, true);
  });
}

const includeMarkets = (ctx: RouteContext) => ctx.query.bool('includeMarkets') ?? live(ctx);

function requireEvent(ctx: RouteContext): SimEvent {
  const id = ctx.params[0]!;
  const event = ctx.world.event(id);
  if (!event) throw notFound(`Event ${id} not found`, 'eventId');
  return event;
}

export function listEvents(ctx: RouteContext) {
  const q = ctx.query;
  // Parse every parameter before using any, so a bad one is reported even on an empty result.
  const query = {
    provider: provider(ctx),
    category: q.oneOf('category', CATEGORIES) ?? 'all',
    subcategory: q.text('subcategory') || undefined,
    sortBy: q.oneOf('sortBy', ['volume', 'volume24hr', 'beginAt'] as const),
    sortDirection: q.oneOf('sortDirection', ['asc', 'desc'] as const),
    filter: q.oneOf('filter', ['new', 'live', 'trending'] as const),
  };
  const withMarkets = includeMarkets(ctx);
  const start = q.nonNegativeInt('start');
  const end = q.nonNegativeInt('end');
  const limit = q.intInRange('limit', 1, MAX_LIMIT);
  // `limit` is ignored when `end` is sent (the service's OpenAPI, 2026-07-05).
  const { page, pagination } =
    limit !== undefined && end === undefined
      ? paginate(ctx.world.listEvents(query), start, (start ?? 0) + limit, ctx.maxLimit)
      : paginate(ctx.world.listEvents(query), start, end, ctx.maxPageSize);
  return { data: renderListed(ctx, page, withMarkets), pagination };
}

export function getEvent(ctx: RouteContext) {
  const withMarkets = includeMarkets(ctx);
  const event = requireEvent(ctx);
  return shapeEventRecord(ctx.recordFaults, ctx.world.eventBody(event.eventId, { includeMarkets: withMarkets })!, event.provider, false);
}

export function eventMarkets(ctx: RouteContext) {
  const start = ctx.query.nonNegativeInt('start');
  const end = ctx.query.nonNegativeInt('end');
  const event = requireEvent(ctx);
  const { page, pagination } = paginate(event.marketIds, start, end, ctx.maxPageSize);
  return { data: page.map((id) => shapeMarketRecord(ctx.recordFaults, ctx.world.marketBody(id, { detail: false })!, true)), pagination };
}

export function searchEvents(ctx: RouteContext) {
  const text = ctx.query.text('query');
  if (text === undefined) throw badRequest('query', 'query is required');
  const chars = [...text].length;
  if (chars < 1 || chars > MAX_QUERY_CHARS) throw badRequest('query', `query must be 1 to ${MAX_QUERY_CHARS} characters, got ${chars}`);
  const p = provider(ctx);
  const limit = ctx.query.intInRange('limit', 1, 20) ?? DEFAULT_SEARCH_LIMIT;
  if (!live(ctx)) return { data: renderListed(ctx, ctx.world.searchEvents(p, text, limit), false) };
  // The live service answers 10 events whatever the limit (live-facts: limit=2 gave 10, end 10).
  const found = ctx.world.searchEvents(p, text, Infinity);
  const { page, pagination } = paginate(found, 0, DEFAULT_SEARCH_LIMIT, DEFAULT_SEARCH_LIMIT);
  return { data: renderListed(ctx, page, 'empty'), pagination };
}

export function suggestedEvents(ctx: RouteContext) {
  const p = provider(ctx);
  const pubkey = ctx.params[0]!;
  return { data: renderListed(ctx, ctx.world.suggestedEvents(p, pubkey), live(ctx), true) };
}
