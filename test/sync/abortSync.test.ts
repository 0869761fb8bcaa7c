import { performance } from 'node:perf_hooks';

import type { Dispatcher } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createPredictionClient, type RequestEvent } from '../../src/api/client/index.js';
import type { Simulator } from '../../src/simulator/index.js';
import { runSyncCycle } from '../../src/sync/runSyncCycle.js';
import { API_KEY, startHarness } from '../helpers/syncHarness.js';
import { createTestDatabase, type TestDatabase } from '../helpers/testDatabase.js';

let sim: Simulator;

beforeAll(async () => {
  // A little latency: when the abort comes, requests are in flight and others wait in the queue.
  ({ sim } = await startHarness({ seed: 5, markets: 300, faults: { latencyMs: 20 } }));
});
afterAll(() => sim.stop());

/**
 * A sync whose signal is aborted from the client's own request hook, on the `nth` answer of
 * `endpoint`: the moment is exact, the sends are stamped by an interceptor, and what was fetched
 * before the abort can be counted.
 */
async function syncAbortedAt(db: TestDatabase, endpoint: string, nth: number, options: { providers: string[]; categories: string[] }) {
  const stop = new AbortController();
  const sentAtMs: number[] = [];
  const stamp: Dispatcher.DispatcherComposeInterceptor = (dispatch) => (opts, handler) => {
    sentAtMs.push(performance.now());
    return dispatch(opts, handler);
  };
  let answered = 0;
  let abortedAtMs = Infinity;
  const onRequest = (e: RequestEvent) => {
    if (e.endpoint !== endpoint || e.status !== 200 || ++answered !== nth) return;
    abortedAtMs = performance.now();
    stop.abort(new Error('SIGTERM'));
  };
  const client = createPredictionClient({
    baseUrl: sim.url,
    apiKey: API_KEY,
    rateLimit: { requests: 1_000_000, windowMs: 60_000 },
    // Pages of 20: the listing of 34 events then takes two pages, one after the other.
    listingPageSize: 20,
    concurrency: 8,
    interceptors: [stamp],
    onRequest,
  });
  try {
    // The view the job runs on: every call of the job is dropped the moment the signal aborts.
    const result = await runSyncCycle(db.sql, client.withSignal(stop.signal), {
      ...options,
      maxOrderBooks: null,
      signal: stop.signal,
      batchSize: 10,
    });
    // Anything still queued would have gone out by now.
    await new Promise((resolve) => setTimeout(resolve, 200));
    return { result, fetchedBefore: nth - 1, sentAfter: sentAtMs.filter((t) => t > abortedAtMs).length, aborted: stop.signal.aborted };
  } finally {
    await client.close();
  }
}

describe('a sync whose signal aborts mid-run', () => {
  it('in the order-book sweep: every book that arrived before is committed, nothing is sent after, the run is aborted', async () => {
    const db = await createTestDatabase();
    try {
      const run = await syncAbortedAt(db, '/orderbook/{marketId}', 25, { providers: ['kalshi', 'polymarket'], categories: ['all'] });
      expect(run.aborted).toBe(true);
      expect(run.result.status).toBe('aborted');
      expect(run.sentAfter).toBe(0);
      const [books] = await db.sql`select count(*)::int as n from prediction.orderbook_snapshots`;
      expect(books!.n).toBe(run.fetchedBefore);
      // The crawl and the closed-events feed (its default span: the last 24 hours) before it completed and stay committed.
      const [events] = await db.sql`select count(*)::int as n from prediction.events`;
      const closed = (['kalshi', 'polymarket'] as const).flatMap((p) => sim.world.closedEvents(p, sim.world.nowSec - 86_400));
      const shown = new Set([...sim.world.events().filter((e) => e.isActive), ...closed].map((e) => e.eventId));
      expect(events!.n).toBe(shown.size);
      const [row] = await db.sql`select status, error from prediction.ingest_runs where run_id = ${run.result.runId}`;
      expect(row).toEqual({ status: 'aborted', error: 'stopped by a signal' });
    } finally {
      await db.close();
    }
  });

  it('in the listing crawl: the pages committed before stay, the crawl ends without an error, nothing is sent after', async () => {
    const db = await createTestDatabase();
    try {
      // One listing (34 events: two pages), so pages come one after the other: the second page's answer is dropped.
      const run = await syncAbortedAt(db, '/events', 2, { providers: ['polymarket'], categories: ['all'] });
      expect(run.result.status).toBe('aborted');
      expect(run.sentAfter).toBe(0);
      const [events] = await db.sql`select count(*)::int as n from prediction.events`;
      expect(events!.n).toBe(20);
      const coverage = await db.sql`select category, pages, complete from prediction.crawl_coverage where category = 'all'`;
      expect(coverage).toEqual([{ category: 'all', pages: 1, complete: false }]);
      // The trade feed is polled first, then the listing.
      expect(Object.keys(run.result.totals.requestsByStatus)).toEqual(['/trades', '/events']);
    } finally {
      await db.close();
    }
  });
});
