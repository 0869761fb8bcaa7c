/** GET /events, /events/{id}, /events/{id}/markets, /events/search, /events/suggested/{pubkey}. */
import { CATEGORIES, DEFAULT_PROVIDER, KNOWN_PROVIDERS } from '../../domain/types.js';
import { shapeEventRecord, shapeMarketRecord } from '../faults/shapeRecords.js';
import type { SimEvent } from '../world/simTypes.js';
import { badRequest, notFound } from './httpErrors.js';
import { paginate } from './paginate.js';
import type { RouteContext } from './routeContext.js';

/** Search `limit` when absent: the spec gives only the bounds 1..20. */
export const DEFAULT_SEARCH_LIMIT = 10;
const MAX_QUERY_CHARS = 200;

const provider = (ctx: RouteContext) => ctx.query.oneOf('provider', KNOWN_PROVIDERS) ?? DEFAULT_PROVIDER;

function renderListed(ctx: RouteContext, events: readonly SimEvent[], includeMarkets: boolean, isRecommended = false) {
  return events.map((e) =>
    shapeEventRecord(ctx.shape, ctx.world.eventJson(e.eventId, { includeMarkets, isRecommended })!, e.provider, true),
  );
}

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
    sortBy: q.oneOf('sortBy', ['volume', 'beginAt'] as const),
    sortDirection: q.oneOf('sortDirection', ['asc', 'desc'] as const),
    filter: q.oneOf('filter', ['new', 'live', 'trending'] as const),
  };
  const includeMarkets = q.bool('includeMarkets') ?? false;
  const start = q.nonNegativeInt('start');
  const end = q.nonNegativeInt('end');
  const { page, pagination } = paginate(ctx.world.listEvents(query), start, end, ctx.maxPageSize);
  return { data: renderListed(ctx, page, includeMarkets), pagination };
}

export function getEvent(ctx: RouteContext) {
  const includeMarkets = ctx.query.bool('includeMarkets') ?? false;
  const event = requireEvent(ctx);
  return shapeEventRecord(ctx.shape, ctx.world.eventJson(event.eventId, { includeMarkets })!, event.provider, false);
}

export function eventMarkets(ctx: RouteContext) {
  const start = ctx.query.nonNegativeInt('start');
  const end = ctx.query.nonNegativeInt('end');
  const event = requireEvent(ctx);
  const { page, pagination } = paginate(event.marketIds, start, end, ctx.maxPageSize);
  return { data: page.map((id) => shapeMarketRecord(ctx.shape, ctx.world.marketJson(id)!, true)), pagination };
}

export function searchEvents(ctx: RouteContext) {
  const text = ctx.query.text('query');
  if (text === undefined) throw badRequest('query', 'query is required');
  const chars = [...text].length;
  if (chars < 1 || chars > MAX_QUERY_CHARS) throw badRequest('query', `query must be 1 to ${MAX_QUERY_CHARS} characters, got ${chars}`);
  const p = provider(ctx);
  const limit = ctx.query.intInRange('limit', 1, 20) ?? DEFAULT_SEARCH_LIMIT;
  return { data: renderListed(ctx, ctx.world.searchEvents(p, text, limit), false) };
}

export function suggestedEvents(ctx: RouteContext) {
  const p = provider(ctx);
  const pubkey = ctx.params[0]!;
  return { data: renderListed(ctx, ctx.world.suggestedEvents(p, pubkey), false, true) };
}
