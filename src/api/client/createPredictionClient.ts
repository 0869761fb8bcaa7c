// Longer than most files: one method per endpoint and the views over one executor read best together.
import { setMaxListeners } from 'node:events';

import {
  type CategoryCount,
  type Checked,
  DEFAULT_PROVIDER,
  type Event,
  type Market,
  type OrderBook,
  type Pagination,
  type Trade,
} from '../../domain/types.js';
import {
  type ApiRequest,
  type ClosedEventsParams,
  closedEventsRequest,
  ENDPOINTS,
  type EventCategoriesParams,
  eventCategoriesRequest,
  type GetEventParams,
  getEventRequest,
  getMarketRequest,
  getOrderBookRequest,
  LIST_EVENTS_LIMIT,
  listEventMarketsRequest,
  type ListEventsParams,
  listEventsRequest,
  listTradesRequest,
  type ProviderParams,
  type SearchEventsParams,
  searchEventsRequest,
  suggestedEventsRequest,
} from '../endpoints/requests.js';
import { ApiKeyMissingError, ApiResponseShapeError, ApiResponseTooLargeError } from '../errors.js';
import {
  oversizedOrderBook,
  parseClosedEventList,
  parseEvent,
  parseEventArray,
  parseEventCategories,
  parseEventList,
  parseMarket,
  parseMarketList,
  parseOrderBook,
  parseTradeList,
  ResponseShapeError,
} from '../parse.js';
import type { ClientStats } from './ClientStats.js';
import { type Page, type PageOptions, paginate } from './paginate.js';
import { type PredictionClientOptions, resolveClientOptions } from './PredictionClientOptions.js';
import type { RequestEvent } from './RequestEvent.js';
import { RequestExecutor } from './RequestExecutor.js';

export interface EventList {
  events: Checked<Event>[];
  pagination: Pagination;
}

/** GET /events/closed: a list, and when the service generated it (null when it did not say readably). */
export interface ClosedEventList extends EventList {
  generatedAt: Date | null;
}

export interface MarketList {
  markets: Checked<Market>[];
  pagination: Pagination;
}

/** The read endpoints of the spec, one method each, over one rate-limited queue. */
export interface PredictionClient {
  listEvents(params?: ListEventsParams): Promise<EventList>;
  /** Events that ended or changed since `params.since` (GET /events/closed). */
  listClosedEvents(params?: ClosedEventsParams): Promise<ClosedEventList>;
  /** The provider's own event counts per category (GET /events/categories); `unreadable` entries skipped. */
  getEventCategories(params?: EventCategoriesParams): Promise<{ categories: CategoryCount[]; unreadable: number }>;
  getEvent(eventId: string, params?: GetEventParams): Promise<Checked<Event>>;
  getSuggestedEvents(pubkey: string, params?: ProviderParams): Promise<{ events: Checked<Event>[] }>;
  searchEvents(query: string, params?: SearchEventsParams): Promise<{ events: Checked<Event>[] }>;
  listEventMarkets(eventId: string, params?: { start?: number; end?: number }): Promise<MarketList>;
  getMarket(marketId: string): Promise<Checked<Market>>;
  /** A body over `maxOrderBookBytes` comes back as a rejected book (not read further), not as an error. */
  getOrderBook(marketId: string): Promise<Checked<OrderBook>>;
  /** GET /trades: the service's latest fills, newest first (20 on the live service). */
  listTrades(): Promise<{ trades: Checked<Trade>[] }>;
  /** Every page of GET /events for these filters, duplicates across pages dropped. */
  iterateEvents(
    params?: Omit<ListEventsParams, 'start' | 'end' | 'limit'>,
    paging?: PageOptions,
  ): AsyncGenerator<Page<Event>, void, undefined>;
  /**
   * Every page of GET /events/closed for this provider and `since`, duplicates across pages
   * dropped; each page's `meta` is when the service generated it.
   */
  iterateClosedEvents(
    params?: Omit<ClosedEventsParams, 'start' | 'end'>,
    paging?: PageOptions,
  ): AsyncGenerator<Page<Event, Date | null>, void, undefined>;
  /** Every page of GET /events/{eventId}/markets, duplicates across pages dropped. */
  iterateEventMarkets(eventId: string, paging?: PageOptions): AsyncGenerator<Page<Market>, void, undefined>;
  /**
   * A view of this same client (same queue, rate limit, pause, failure state and stats) whose
   * requests are queued at `priority` (higher first; the default view uses 0). For jobs sharing
   * one account: a low-priority job cannot starve a high-priority one. close()/abort() on a view
   * close the whole client.
   */
  withPriority(priority: number): PredictionClient;
  /**
   * A view of the same client (same queue, limit and state) that also reports each attempt of
   * its own calls to `observe`: per-job request accounting when jobs share the client.
   */
  observedBy(observe: (event: RequestEvent) => void): PredictionClient;
  /**
   * A view of the same client (same queue, limit and state) whose calls are dropped when `signal`
   * aborts: queued behind the rate limit or a 429 pause, backing off, or in flight, each rejects
   * at once with ApiRequestAbortedError (the signal's reason as its `cause`), and a later call
   * rejects before anything is sent. Other views and the client itself carry on. Views compose:
   * `withSignal(a).withSignal(b)` stops at either. `undefined` returns this view unchanged.
   * Many calls at once listen to `signal`, so its listener limit is lifted.
   */
  withSignal(signal: AbortSignal | undefined): PredictionClient;
  stats(): ClientStats;
  /** Stops scheduling, rejects queued calls with ApiClientClosedError, lets requests in flight finish, closes the connections. */
  close(): Promise<void>;
  /** Stops everything at once: queued, paused, sleeping and in-flight calls reject with ApiRequestAbortedError; closes the connections. */
  abort(): Promise<void>;
}

/**
 * Builds the client. Throws ApiKeyMissingError when there is no key and `allowKeyless` is not
 * set, and a RangeError for a bad option; both before any connection is opened.
 */
export function createPredictionClient(options: PredictionClientOptions): PredictionClient {
  const resolved = resolveClientOptions(options);
  if ((resolved.apiKey === undefined || resolved.apiKey === '') && !resolved.allowKeyless) throw new ApiKeyMissingError();
  const base = parseBaseUrl(resolved.baseUrl);
  const executor = new RequestExecutor({ ...resolved, apiKey: resolved.apiKey || undefined }, base);

  if (resolved.listingPageSize > LIST_EVENTS_LIMIT.max) {
    throw new RangeError(`Option listingPageSize must be at most ${LIST_EVENTS_LIMIT.max}, got ${resolved.listingPageSize}`);
  }
  const shared: Shared = {
    executor,
    basePath: base.basePath,
    maxOrderBookBytes: resolved.maxOrderBookBytes,
    listingPageSize: resolved.listingPageSize,
  };
  return clientView(shared, { priority: 0, observe: undefined, signals: [] });
}

/** What every view of one client shares. */
interface Shared {
  readonly executor: RequestExecutor;
  readonly basePath: string;
  readonly maxOrderBookBytes: number;
  readonly listingPageSize: number;
}

interface ViewOptions {
  readonly priority: number;
  readonly observe: ((event: RequestEvent) => void) | undefined;
  readonly signals: readonly AbortSignal[];
}

/** The endpoint methods over `executor`, queued at `view.priority`, observed and cancelled as `view` says. */
function clientView(shared: Shared, view: ViewOptions): PredictionClient {
  const { executor, basePath } = shared;
  const { observe } = view;
  /**
   * Sends, then parses; a body of the wrong shape becomes an ApiResponseShapeError naming the
   * request. `maxResponseBytes` lowers the body cap for this request.
   */
  async function get<T>(request: ApiRequest, parse: (body: unknown) => T, maxResponseBytes?: number): Promise<T> {
    const body = await executor.getJson(request, maxResponseBytes === undefined ? view : { ...view, maxResponseBytes });
    try {
      return parse(body);
    } catch (error) {
      if (!(error instanceof ResponseShapeError)) throw error;
      const target = `${basePath}${request.path}${request.query ? `?${request.query}` : ''}`;
      throw new ApiResponseShapeError('Response does not match the spec', {
        request: { method: 'GET', endpoint: request.endpoint, target },
        cause: error,
      });
    }
  }

  // Methods are async so that a parameter violation rejects the returned promise rather than throwing.
  const client: PredictionClient = {
    async listEvents(params = {}) {
      const provider = params.provider ?? DEFAULT_PROVIDER;
      return get(listEventsRequest(params), (body) => parseEventList(body, { provider }));
    },
    async listClosedEvents(params = {}) {
      const provider = params.provider ?? DEFAULT_PROVIDER;
      return get(closedEventsRequest(params), (body) => parseClosedEventList(body, { provider }));
    },
    async getEventCategories(params = {}) {
      return get(eventCategoriesRequest(params), (body) => parseEventCategories(body));
    },
    async getEvent(eventId, params = {}) {
      // The detail endpoint takes no provider: ids are unique across providers.
      return get(getEventRequest(eventId, params), (body) => parseEvent(body, { provider: null, requestedId: eventId }));
    },
    async getSuggestedEvents(pubkey, params = {}) {
      const provider = params.provider ?? DEFAULT_PROVIDER;
      return get(suggestedEventsRequest(pubkey, params), (body) => parseEventArray(body, { provider }));
    },
    async searchEvents(query, params = {}) {
      const provider = params.provider ?? DEFAULT_PROVIDER;
      return get(searchEventsRequest(query, params), (body) => parseEventArray(body, { provider }));
    },
    async listEventMarkets(eventId, params = {}) {
      return get(listEventMarketsRequest(eventId, params), (body) => parseMarketList(body, { eventId }));
    },
    async getMarket(marketId) {
      return get(getMarketRequest(marketId), (body) => parseMarket(body, { eventId: null, requestedId: marketId }));
    },
    async getOrderBook(marketId) {
      try {
        return await get(getOrderBookRequest(marketId), (body) => parseOrderBook(body, { marketId }), shared.maxOrderBookBytes);
      } catch (error) {
        // Too large to be a valid book: a record to quarantine, not a failure of the sweep.
        if (error instanceof ApiResponseTooLargeError) return oversizedOrderBook(marketId, error.capBytes ?? shared.maxOrderBookBytes);
        throw error;
      }
    },
    async listTrades() {
      return get(listTradesRequest(), parseTradeList);
    },
    iterateEvents(params = {}, paging = {}) {
      // Validate the filters now, not at the first next(): a bad value should fail where it is passed.
      listEventsRequest(params);
      return paginate(
        ENDPOINTS.listEvents,
        async (start, end) => {
          // `limit` rather than `end`: the page size the service's OpenAPI (2026-07-05) names, up to
          // 100, and ignored when `end` is sent. Only a page larger than that is asked for by `end`.
          const size = end - start;
          const range = size <= LIST_EVENTS_LIMIT.max ? { start, limit: size } : { start, end };
          const { events, pagination } = await client.listEvents({ ...params, ...range });
          return { items: events, pagination };
        },
        (event) => event.eventId,
        { ...paging, pageSize: paging.pageSize ?? shared.listingPageSize },
      );
    },
    iterateClosedEvents(params = {}, paging = {}) {
      closedEventsRequest(params);
      return paginate<Event, Date | null>(
        ENDPOINTS.closedEvents,
        async (start, end) => {
          const { events, pagination, generatedAt } = await client.listClosedEvents({ ...params, start, end });
          return { items: events, pagination, meta: generatedAt };
        },
        (event) => event.eventId,
        paging,
      );
    },
    iterateEventMarkets(eventId, paging = {}) {
      listEventMarketsRequest(eventId);
      return paginate(
        ENDPOINTS.listEventMarkets,
        async (start, end) => {
          const { markets, pagination } = await client.listEventMarkets(eventId, { start, end });
          return { items: markets, pagination };
        },
        (market) => market.marketId,
        paging,
      );
    },
    withPriority(newPriority) {
      if (!Number.isFinite(newPriority)) throw new RangeError(`priority must be a finite number, got ${newPriority}`);
      return clientView(shared, { ...view, priority: newPriority });
    },
    observedBy(listener) {
      const both = observe ? (event: RequestEvent) => (observe(event), listener(event)) : listener;
      return clientView(shared, { ...view, observe: both });
    },
    withSignal(signal) {
      if (signal === undefined || view.signals.includes(signal)) return client;
      setMaxListeners(0, signal);
      return clientView(shared, { ...view, signals: [...view.signals, signal] });
    },
    stats: () => executor.stats(),
    close: () => executor.close(),
    abort: () => executor.abort(),
  };
  return client;
}

function parseBaseUrl(baseUrl: string): { origin: string; basePath: string } {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch (error) {
    throw new RangeError(`Option baseUrl must be an http(s) URL, got ${JSON.stringify(baseUrl)}`, { cause: error });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new RangeError(`Option baseUrl must be an http(s) URL, got ${JSON.stringify(baseUrl)}`);
  }
  return { origin: url.origin, basePath: url.pathname.replace(/\/+$/, '') };
}
