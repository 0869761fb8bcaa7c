import type { EventTarget } from '../sql/targets/selectSyncTargets.js';
import { type MarketDetailTargets, marketsToFetch } from '../sync/marketDetailTargets.js';

/**
 * Requests the next details run sends, from the targets it would select now. It refreshes events
 * first, each detail with its markets, and selects markets only after: a stale or metadata-less
 * market of a refreshed event has been seen by then and is not fetched again; a market around its
 * close is (its selection does not look at when it was seen). Assumes an event's detail lists all
 * of its markets, as the upstream's does.
 */
export function detailRequests(events: readonly EventTarget[], markets: MarketDetailTargets): { events: number; markets: number } {
  const refreshed = new Set(events.map((e) => e.eventId));
  const unseen = (t: { eventId: string }) => !refreshed.has(t.eventId);
  const fetched = marketsToFetch({
    stale: markets.stale.filter(unseen),
    lacking: markets.lacking.filter(unseen),
    closing: markets.closing,
  });
  return { events: events.length, markets: fetched.length };
}
