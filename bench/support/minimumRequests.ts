/**
 * The fewest requests one sync cycle can make against a simulator world that does not change
 * during the cycle: every listing page once, plus one order book per open listed market. Listings
 * embed every market with its metadata, and nothing has left the listing yet, so no market or
 * event detail is needed.
 */
import type { World } from '../../src/simulator/index.js';
import type { SimCategory, SimProvider } from '../../src/simulator/index.js';

export interface RequestBudget {
  listingPages: number;
  orderBooks: number;
  details: number;
  total: number;
}

/** `pageSize`: the smaller of what the client asks (20) and the server's cap. */
export function minimumRequests(world: World, providers: readonly string[], categories: readonly string[], pageSize: number): RequestBudget {
  let listingPages = 0;
  let orderBooks = 0;
  for (const provider of providers) {
    for (const category of categories) {
      const listed = world.listEvents({ provider: provider as SimProvider, category: category as SimCategory, sortBy: 'beginAt', sortDirection: 'asc' });
      // An empty listing still takes one request to learn that it is empty.
      listingPages += Math.max(1, Math.ceil(listed.length / pageSize));
      for (const e of listed) orderBooks += world.marketsOf(e.eventId).filter((m) => m.status === 'open').length;
    }
  }
  return { listingPages, orderBooks, details: 0, total: listingPages + orderBooks };
}

/** Requests by endpoint from a run's requests_by_status ({ endpoint: { status: n } }). */
export function requestsByEndpoint(byStatus: Record<string, Record<string, number>>): string {
  return Object.entries(byStatus)
    .map(([endpoint, statuses]) => `${endpoint} ${Object.entries(statuses).map(([s, n]) => `${s}:${n}`).join(' ')}`)
    .join('; ');
}
