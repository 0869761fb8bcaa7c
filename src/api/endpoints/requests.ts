/**
 * One builder per read endpoint of the spec (section 4): validates the parameters against the
 * spec's bounds, then returns what to send. Nothing here does I/O.
 */
import { CATEGORIES, type Category, PROVIDER_NAME } from '../../domain/types.js';
import {
  MAX_ID_CHARS,
  optionalBoolean,
  optionalEnum,
  optionalInt,
  optionalMatch,
  optionalString,
  requireId,
  requireLength,
} from './paramRules.js';

/** A request ready to send: `path` is relative to the base URL (which ends in /prediction/v1). */
export interface ApiRequest {
  /** Route template, the metrics label: `/events/{eventId}`. */
  readonly endpoint: string;
  readonly path: string;
  /** Encoded query string without `?`; empty when there is none. */
  readonly query: string;
}

/** `volume24hr` (the service's default sort) since its OpenAPI of 2026-07-05. */
export const SORT_BY = ['volume', 'volume24hr', 'beginAt'] as const;
export const SORT_DIRECTIONS = ['asc', 'desc'] as const;
/** `upcoming` since the OpenAPI of 2026-06-18. */
export const EVENT_FILTERS = ['new', 'live', 'trending', 'upcoming'] as const;
/** Spec 4.4: `limit` of a search. */
export const SEARCH_LIMIT = { min: 1, max: 20 } as const;
/**
 * `limit` of GET /events: the page size, at most 100 (the service's OpenAPI of 2026-07-05; it is
 * ignored when `end` is sent, so a listing sends `start` and `limit`).
 */
export const LIST_EVENTS_LIMIT = { min: 1, max: 100 } as const;
/** Spec 4.4: length of a search query, in characters. */
export const SEARCH_QUERY_CHARS = { min: 1, max: 200 } as const;

const optionalProvider = (endpoint: string, value: unknown) =>
  optionalMatch(
    endpoint,
    'provider',
    value,
    PROVIDER_NAME,
    'must be a provider name such as kalshi or polymarket (lowercase letters, digits, - or _)',
  );

export const ENDPOINTS = {
  listEvents: '/events',
  getEvent: '/events/{eventId}',
  suggestedEvents: '/events/suggested/{pubkey}',
  searchEvents: '/events/search',
  listEventMarkets: '/events/{eventId}/markets',
  /** Events that ended or changed since `since` (OpenAPI 2026-07-05): `{data, pagination, timestamp}`. */
  closedEvents: '/events/closed',
  /** Event counts per category and subcategory (OpenAPI 2026-07-05): `{data: EventCategory[]}`. */
  eventCategories: '/events/categories',
  getMarket: '/markets/{marketId}',
  getOrderBook: '/orderbook/{marketId}',
  /** The global trade feed: the latest 20 fills, newest first; no paging (service OpenAPI 2026-07-05). */
  listTrades: '/trades',
} as const;

export interface ListEventsParams {
  /** kalshi or polymarket (documented); any other provider name the service has added. */
  provider?: string;
  includeMarkets?: boolean;
  /**
   * Every sports market type (spread and totals besides moneyline) of Polymarket events; the
   * upstream's default is false (OpenAPI 2026-06-18).
   */
  includeAllMarkets?: boolean;
  /** Zero-based index of the first item (upstream: half-open [start, end)). */
  start?: number;
  end?: number;
  /** Page size, 1..100; the service ignores it when `end` is sent. */
  limit?: number;
  category?: Category;
  subcategory?: string;
  sortBy?: (typeof SORT_BY)[number];
  sortDirection?: (typeof SORT_DIRECTIONS)[number];
  filter?: (typeof EVENT_FILTERS)[number];
}

export interface GetEventParams {
  includeMarkets?: boolean;
  /** As ListEventsParams.includeAllMarkets. */
  includeAllMarkets?: boolean;
}

export interface ProviderParams {
  /** kalshi or polymarket (documented); any other provider name the service has added. */
  provider?: string;
}

export interface SearchEventsParams extends ProviderParams {
  /** 1 to 20. */
  limit?: number;
}

export interface ClosedEventsParams extends ProviderParams {
  /** Unix seconds (> 0): events updated after it. The service's default is the last 24 hours. */
  since?: number;
  start?: number;
  end?: number;
}

export interface EventCategoriesParams extends ProviderParams {
  /** Count inactive events and events with only closed markets too; the service's default is false. */
  includeClosed?: boolean;
}

export interface ListEventMarketsParams {
  start?: number;
  end?: number;
}

export function listEventsRequest(params: ListEventsParams = {}): ApiRequest {
  const e = ENDPOINTS.listEvents;
  return build(e, '/events', {
    provider: optionalProvider(e, params.provider),
    includeMarkets: optionalBoolean(e, 'includeMarkets', params.includeMarkets),
    includeAllMarkets: optionalBoolean(e, 'includeAllMarkets', params.includeAllMarkets),
    start: optionalInt(e, 'start', params.start, { min: 0 }),
    end: optionalInt(e, 'end', params.end, { min: 0 }),
    limit: optionalInt(e, 'limit', params.limit, LIST_EVENTS_LIMIT),
    category: optionalEnum(e, 'category', params.category, CATEGORIES),
    // A label, not an id, but of the same kind and bound as the subcategories the service sends.
    subcategory: optionalString(e, 'subcategory', params.subcategory, MAX_ID_CHARS),
    sortBy: optionalEnum(e, 'sortBy', params.sortBy, SORT_BY),
    sortDirection: optionalEnum(e, 'sortDirection', params.sortDirection, SORT_DIRECTIONS),
    filter: optionalEnum(e, 'filter', params.filter, EVENT_FILTERS),
  });
}

export function closedEventsRequest(params: ClosedEventsParams = {}): ApiRequest {
  const e = ENDPOINTS.closedEvents;
  return build(e, '/events/closed', {
    provider: optionalProvider(e, params.provider),
    since: optionalInt(e, 'since', params.since, { min: 1 }),
    start: optionalInt(e, 'start', params.start, { min: 0 }),
    end: optionalInt(e, 'end', params.end, { min: 0 }),
  });
}

export function eventCategoriesRequest(params: EventCategoriesParams = {}): ApiRequest {
  const e = ENDPOINTS.eventCategories;
  return build(e, '/events/categories', {
    provider: optionalProvider(e, params.provider),
    includeClosed: optionalBoolean(e, 'includeClosed', params.includeClosed),
  });
}

export function getEventRequest(eventId: string, params: GetEventParams = {}): ApiRequest {
  const e = ENDPOINTS.getEvent;
  const id = requireId(e, 'eventId', eventId);
  return build(e, `/events/${segment(id)}`, {
    includeMarkets: optionalBoolean(e, 'includeMarkets', params.includeMarkets),
    includeAllMarkets: optionalBoolean(e, 'includeAllMarkets', params.includeAllMarkets),
  });
}

export function suggestedEventsRequest(pubkey: string, params: ProviderParams = {}): ApiRequest {
  const e = ENDPOINTS.suggestedEvents;
  const key = requireId(e, 'pubkey', pubkey);
  return build(e, `/events/suggested/${segment(key)}`, { provider: optionalProvider(e, params.provider) });
}

export function searchEventsRequest(query: string, params: SearchEventsParams = {}): ApiRequest {
  const e = ENDPOINTS.searchEvents;
  return build(e, '/events/search', {
    query: requireLength(e, 'query', query, SEARCH_QUERY_CHARS.min, SEARCH_QUERY_CHARS.max),
    provider: optionalProvider(e, params.provider),
    limit: optionalInt(e, 'limit', params.limit, SEARCH_LIMIT),
  });
}

export function listEventMarketsRequest(eventId: string, params: ListEventMarketsParams = {}): ApiRequest {
  const e = ENDPOINTS.listEventMarkets;
  const id = requireId(e, 'eventId', eventId);
  return build(e, `/events/${segment(id)}/markets`, {
    start: optionalInt(e, 'start', params.start, { min: 0 }),
    end: optionalInt(e, 'end', params.end, { min: 0 }),
  });
}

export function getMarketRequest(marketId: string): ApiRequest {
  const e = ENDPOINTS.getMarket;
  return build(e, `/markets/${segment(requireId(e, 'marketId', marketId))}`, {});
}

export function getOrderBookRequest(marketId: string): ApiRequest {
  const e = ENDPOINTS.getOrderBook;
  return build(e, `/orderbook/${segment(requireId(e, 'marketId', marketId))}`, {});
}

export function listTradesRequest(): ApiRequest {
  return build(ENDPOINTS.listTrades, '/trades', {});
}

function build(endpoint: string, path: string, query: Record<string, string | number | boolean | undefined>): ApiRequest {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined) search.set(name, String(value));
  return { endpoint, path, query: search.toString() };
}

/** An id as one path segment. A segment of dots alone would be collapsed as `.`/`..` by some URL handling on the way. */
function segment(id: string): string {
  return /^\.+$/.test(id) ? id.replace(/\./g, '%2E') : encodeURIComponent(id);
}
