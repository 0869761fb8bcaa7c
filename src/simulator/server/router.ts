/**
 * Maps a path under /prediction/v1 to a handler. `search` and `suggested` take precedence over
 * an event id. An empty identifier segment (`/markets/`, `/events//markets`) is a 400, as the
 * spec requires identifiers of length >= 1; a path matching no route is a 404.
 */
import { eventMarkets, getEvent, listEvents, searchEvents, suggestedEvents } from './eventRoutes.js';
import { closedEvents, eventCategories } from './feedRoutes.js';
import { badRequest, notFound } from './httpErrors.js';
import { getMarket, getOrderBook } from './marketRoutes.js';
import type { RouteHandler } from './routeContext.js';
import { listTrades } from './tradeRoutes.js';

export interface Route {
  handler: RouteHandler;
  params: string[];
}

function id(segment: string | undefined, name: string): string {
  if (segment === undefined || segment === '') throw badRequest(name, `${name} must not be empty`);
  try {
    return decodeURIComponent(segment);
  } catch {
    throw badRequest(name, `${name} is not valid percent-encoding`);
  }
}

/** `path` is what follows the base path, e.g. "/events/POLY-1/markets". */
export function resolveRoute(path: string): Route {
  const s = path.split('/').slice(1);
  const [head, a, b] = s;
  const n = s.length;
  if (head === 'events') {
    if (n === 1) return { handler: listEvents, params: [] };
    if (n === 2 && a === 'search') return { handler: searchEvents, params: [] };
    if (n === 2 && a === 'closed') return { handler: closedEvents, params: [] };
    if (n === 2 && a === 'categories') return { handler: eventCategories, params: [] };
    if (a === 'suggested' && n <= 3) return { handler: suggestedEvents, params: [id(b, 'pubkey')] };
    if (n === 2) return { handler: getEvent, params: [id(a, 'eventId')] };
    if (n === 3 && b === 'markets') return { handler: eventMarkets, params: [id(a, 'eventId')] };
  }
  if (head === 'markets' && n === 2) return { handler: getMarket, params: [id(a, 'marketId')] };
  if (head === 'trades' && n === 1) return { handler: listTrades, params: [] };
  if (head === 'orderbook' && n === 2) return { handler: getOrderBook, params: [id(a, 'marketId')] };
  throw notFound(`No route for ${path || '/'}`);
}
