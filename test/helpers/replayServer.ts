/**
 * A loopback HTTP server that answers the read API under `/prediction/v1` from the hand-built
 * live fixtures (`test/fixtures/live/`, see its README): what the live service sends today,
 * replayed over real HTTP so the CLI can be run against it exactly as a user would.
 *
 * - `GET /events?provider=P`: polymarket -> events-page-polymarket (answered as the whole listing:
 *   `hasNext: false`, pagination consistent with the items served); bisonfi -> events-page-bisonfi;
 *   kalshi (no public recording) and any other provider -> an empty listing. `start` with `end` or
 *   `limit` (at most 100; ignored when `end` is sent) slice it; with neither, a page holds 20, as
 *   the service's does. `listingSize` pads the polymarket listing with copies of its events under
 *   new ids (for the cost of a listing of the service's size).
 * - `GET /events/closed?provider=P&since=`: polymarket -> events-closed-polymarket (constructed
 *   from the addendum of live-facts: a 5-minute event seen only there, a suffixed id, a one-sided
 *   market, a gx market with result `draw`, a `liveScore`), whatever `since`; others -> empty.
 *   Its `timestamp` is the fixture's. `start`/`end` slice it.
 * - `GET /events/categories?provider=P`: the provider's listing counted per category.
 * - `GET /events/search` -> search-trump. `GET /events/{id}` and `/events/{id}/markets` -> from the
 *   same events (`includeMarkets=false` drops `markets`, as live).
 * - `GET /markets/{id}`: market-detail-live for its id, else the market as nested in its event plus
 *   `eventId` (only this endpoint sends it); 404 `{type, message, request_id}` otherwise.
 * - `GET /orderbook/{id}`: orderbook-96-levels for the market whose `sellYesPriceUsd` equals that
 *   book's best YES bid ($0.9990 = 999000); a `null` body for a closed market; otherwise a small
 *   cents-only book, one level per side at the market's own bid prices (0 and `null` bids omitted).
 *
 * - `GET /trades` -> `trades`, trades-2026-07 until a test replaces it.
 *
 * Every request is recorded (method, path below the base, query, status). With `apiKey` set, a
 * request without that `x-api-key` gets the gateway's 401 `{code, message}`.
 */
import { readFileSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

const BASE = '/prediction/v1';
type Json = Record<string, unknown>;
export type FixtureMarket = Json & { marketId: string; status: string; pricing: Record<string, number> };
export type FixtureEvent = Json & { eventId: string; markets: FixtureMarket[] };
export interface EventsPage {
  data: FixtureEvent[];
  pagination: { start: number; end: number; total: number; hasNext: boolean };
}
/** A row of trades-2026-07.json, as the trade feed sends it. */
export interface FixtureTrade {
  id: string;
  marketId: string;
  eventId: string;
  timestamp: number;
  action: string;
  side: string;
  priceUsd: string;
  amountUsd: string;
  ownerPubkey: string;
}
export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  status: number;
}

/** A fixture of `test/fixtures/live/`, parsed afresh (callers may not share mutable copies). */
export const liveFixture = <T = unknown>(name: string): T =>
  JSON.parse(readFileSync(new URL(`../fixtures/live/${name}`, import.meta.url), 'utf8')) as T;

/** What each provider's listing serves: the recorded page's items (the pagination is the server's own). */
export function replayListings(): Record<string, FixtureEvent[]> {
  return {
    polymarket: liveFixture<EventsPage>('events-page-polymarket.json').data,
    bisonfi: liveFixture<EventsPage>('events-page-bisonfi.json').data,
    kalshi: [],
  };
}

/** What each provider's closed-events feed serves. */
export function replayClosed(): Record<string, FixtureEvent[]> {
  return { polymarket: liveFixture<EventsPage>('events-closed-polymarket.json').data, bisonfi: [], kalshi: [] };
}

/** The polymarket listing padded to `size` events with copies of its own under new ids (POLY-9000000 on). */
export function paddedListing(events: FixtureEvent[], size: number): FixtureEvent[] {
  const padded = [...events];
  for (let i = 0; padded.length < size; i += 1) {
    const model = events[i % events.length]!;
    const eventId = `POLY-${9_000_000 + i}`;
    const markets = model.markets.map((m, j) => ({ ...m, marketId: `POLY-${90_000_000 + i * 10 + j}` }));
    padded.push({ ...model, eventId, metadata: { ...(model.metadata as Json), eventId }, markets });
  }
  return padded;
}

/** Page size of GET /events without `limit` or `end`, and the largest `limit` it takes. */
const DEFAULT_PAGE = 20;
const MAX_LIMIT = 100;

/** The 96-level book's best YES bid in micro-USD (its highest dollar price): 999000. */
export function bestYesBidMicroUsd(book: { yes_dollars: [string, number][] }): number {
  return Math.max(...book.yes_dollars.map(([dollars]) => Math.round(Number(dollars) * 1_000_000)));
}

/** The book served for an open market without a recorded one: its bids in whole cents (rounded down), size 100 each. */
export function centsOnlyBook(market: FixtureMarket): { yes: [number, number][]; no: [number, number][] } {
  const side = (microUsd: number | undefined): [number, number][] => (microUsd ? [[Math.floor(microUsd / 10_000), 100]] : []);
  return { yes: side(market.pricing.sellYesPriceUsd), no: side(market.pricing.sellNoPriceUsd) };
}

export interface ReplayServer {
  url: string;
  requests: RecordedRequest[];
  /** The body GET /trades answers (trades-2026-07.json at the start); a test may replace it between polls. */
  trades: unknown;
  close(): Promise<void>;
}

export async function startReplayServer(options: { apiKey?: string; listingSize?: number } = {}): Promise<ReplayServer> {
  const listings = replayListings();
  if (options.listingSize !== undefined) listings.polymarket = paddedListing(listings.polymarket!, options.listingSize);
  const closed = replayClosed();
  const closedPage = liveFixture<{ timestamp: string }>('events-closed-polymarket.json');
  const events = [...Object.values(listings).flat(), ...Object.values(closed).flat()];
  const marketDetail = liveFixture<FixtureMarket>('market-detail-live.json');
  const deepBook = liveFixture<{ yes_dollars: [string, number][] }>('orderbook-96-levels.json');
  const deepBookBid = bestYesBidMicroUsd(deepBook);
  const search = liveFixture('search-trump.json');
  const requests: RecordedRequest[] = [];
  let nextRequestId = 1;
  // What the server answers that a test may change while it runs.
  const served = { trades: liveFixture('trades-2026-07.json') };

  const answer = (pathname: string, q: URLSearchParams): [number, unknown] => {
    const notFound = (what: string): [number, unknown] => [
      404,
      { type: 'invalid_request_error', message: `${what} not found`, request_id: `replay-${nextRequestId++}` },
    ];
    const page = <T>(items: T[], defaultSize = items.length) => {
      const start = Number(q.get('start') ?? 0);
      const limit = q.get('limit') === null ? defaultSize : Math.min(Number(q.get('limit')), MAX_LIMIT);
      const end = Math.min(Number(q.get('end') ?? start + limit), items.length);
      const data = items.slice(start, Math.max(start, end));
      return { data, pagination: { start, end: start + data.length, total: items.length, hasNext: start + data.length < items.length } };
    };
    const withMarkets = (e: FixtureEvent) => {
      if (q.get('includeMarkets') !== 'false') return e;
      const { markets: _dropped, ...rest } = e;
      return rest;
    };
    let m: RegExpMatchArray | null;
    if (pathname === '/events') return [200, page((listings[q.get('provider') ?? 'polymarket'] ?? []).map(withMarkets), DEFAULT_PAGE)];
    if (pathname === '/events/closed') {
      return [200, { ...page(closed[q.get('provider') ?? 'polymarket'] ?? [], DEFAULT_PAGE), timestamp: closedPage.timestamp }];
    }
    if (pathname === '/events/categories') {
      const counts = new Map<string, number>();
      for (const e of listings[q.get('provider') ?? 'polymarket'] ?? [])
        counts.set(e.category as string, (counts.get(e.category as string) ?? 0) + 1);
      return [200, { data: [...counts].map(([category, eventCount]) => ({ category, eventCount, subcategories: [] })) }];
    }
    if (pathname === '/events/search') return [200, search];
    if (pathname === '/trades') return [200, served.trades];
    if ((m = pathname.match(/^\/events\/([^/]+)(\/markets)?$/))) {
      const event = events.find((e) => e.eventId === decodeURIComponent(m![1]!));
      if (!event) return notFound('Event');
      return [200, m[2] ? page(event.markets) : withMarkets(event)];
    }
    if ((m = pathname.match(/^\/markets\/([^/]+)$/))) {
      const id = decodeURIComponent(m[1]!);
      if (id === marketDetail.marketId) return [200, marketDetail];
      const event = events.find((e) => e.markets.some((mk) => mk.marketId === id));
      return event ? [200, { ...event.markets.find((mk) => mk.marketId === id)!, eventId: event.eventId }] : notFound('Market');
    }
    if ((m = pathname.match(/^\/orderbook\/([^/]+)$/))) {
      const market = events.flatMap((e) => e.markets).find((mk) => mk.marketId === decodeURIComponent(m![1]!));
      if (!market) return notFound('Market');
      if (market.status === 'closed') return [200, null];
      if (market.pricing.sellYesPriceUsd === deepBookBid) return [200, deepBook];
      return [200, centsOnlyBook(market)];
    }
    return notFound('Route');
  };

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://replay');
    const path = url.pathname.startsWith(BASE) ? url.pathname.slice(BASE.length) : url.pathname;
    const send = (status: number, body: unknown) => {
      requests.push({ method: req.method ?? '', path, query: Object.fromEntries(url.searchParams), status });
      reply(res, status, body);
    };
    if (!url.pathname.startsWith(`${BASE}/`)) return send(404, { code: 404, message: 'Not found' });
    if (options.apiKey !== undefined && req.headers['x-api-key'] !== options.apiKey)
      return send(401, { code: 401, message: 'Invalid API key' });
    if (req.method !== 'GET')
      return send(405, {
        type: 'invalid_request_error',
        message: `Method ${req.method} not allowed`,
        request_id: `replay-${nextRequestId++}`,
      });
    send(...answer(path, url.searchParams));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}${BASE}`,
    requests,
    get trades() {
      return served.trades;
    },
    set trades(body: unknown) {
      served.trades = body;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function reply(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}
