import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { createPredictionClient, type PredictionClient } from '../../src/api/client/index.js';
import { runSyncCycle } from '../../src/sync/runSyncCycle.js';
import { OUTAGE_MIN_BOOKS } from '../../src/sync/unavailableBooks.js';
import { type Arrival, type RecordingServer, type Reply, startRecordingServer } from '../api/client/helpers/recordingServer.js';
import { wireEvent, wireMarket } from '../api/client/helpers/wire.js';
import { createTestDatabase, type TestDatabase } from '../helpers/testDatabase.js';

// A database per test: a sync refreshes and sweeps every market an earlier test left open.
let db: TestDatabase;
let server: RecordingServer | undefined;
let client: PredictionClient | undefined;

beforeEach(async () => {
  db = await createTestDatabase();
});
afterEach(async () => {
  await client?.close();
  await server?.close();
  await db.close();
});

/** The upstream's answer when its own order-book source fails (OpenAPI 2026-07-02, GET /orderbook/{marketId}). */
const BOOK_UNAVAILABLE: Reply = { status: 502, json: { message: 'Failed to fetch orderbook data' } };
const MAX_ATTEMPTS = 2;

const marketIds = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}-M${String(i + 1).padStart(2, '0')}`);

/** One listing of one event holding `ids`; books answered by `book`. */
async function upstream(
  ids: readonly string[],
  book: (marketId: string, arrival: Arrival) => Reply,
  listing?: (arrival: Arrival) => Reply,
) {
  const events = [wireEvent(`${ids[0]}-E`, { markets: ids.map((id) => wireMarket(id)) })];
  server = await startRecordingServer((a) => {
    const path = a.path.replace('/prediction/v1', '');
    if (path === '/events') return listing?.(a) ?? { json: { data: events, pagination: { start: 0, end: 1, total: 1, hasNext: false } } };
    if (path === '/trades') return { json: { data: [] } };
    if (path.startsWith('/orderbook/')) return book(decodeURIComponent(path.slice('/orderbook/'.length)), a);
    return { status: 404, json: { message: 'not found' } };
  });
  client = createPredictionClient({
    baseUrl: server.baseUrl,
    allowKeyless: true,
    rateLimit: { requests: 1_000_000 },
    maxAttempts: MAX_ATTEMPTS,
    backoff: { baseMs: 1, capMs: 1 },
  });
  return { server, client };
}

const sync = (c: PredictionClient) => runSyncCycle(db.sql, c, { providers: ['polymarket'], categories: ['all'], maxOrderBooks: null });
const bookRequests = (s: RecordingServer, marketId: string) => s.arrivals.filter((a) => a.path.endsWith(`/orderbook/${marketId}`)).length;
const storedBooks = async (prefix: string) =>
  (
    await db.sql<{ market_id: string }[]>`
      select market_id from prediction.orderbook_snapshots where starts_with(market_id, ${prefix}) order by market_id`
  ).map((r) => r.market_id);

describe('an order book the upstream cannot fetch (502 after every retry)', () => {
  it('is skipped and named in a notice; the sweep writes the others, and the next sweep fetches it again', async () => {
    let broken = true;
    // 1 unavailable of the 61 records asked for (the event, its 30 markets and their books): under 5 %.
    const ids = marketIds('A', 30);
    const { server: s, client: c } = await upstream(ids, (id) => (broken && id === 'A-M03' ? BOOK_UNAVAILABLE : { json: null }));

    const first = await sync(c);
    expect(first.status).toBe('succeeded');
    // This upstream has no closed-events feed nor category counts either: each is noticed too.
    const books = (notices: readonly string[]) => notices.filter((n) => n.includes('order book'));
    expect(books(first.notices)).toEqual([
      '1 order book was skipped: the upstream answered 502 after every retry (fetched again next sweep)',
    ]);
    expect(bookRequests(s, 'A-M03')).toBe(MAX_ATTEMPTS);
    expect(await storedBooks('A-')).toEqual(ids.filter((id) => id !== 'A-M03'));

    broken = false;
    const second = await sync(c);
    expect(books(second.notices)).toEqual([]);
    expect(await storedBooks('A-')).toEqual(ids);
  });

  it('degrades the run when more than MAX_REJECTED_PERCENT of what it asked for could not be fetched', async () => {
    // 2 of the 21 records asked for (the event, its 10 markets and their books): 9.5 %.
    const { client: c } = await upstream(marketIds('B', 10), (id) =>
      id === 'B-M01' || id === 'B-M02' ? BOOK_UNAVAILABLE : { json: null },
    );
    const result = await sync(c);
    expect(result.status).toBe('degraded');
    expect(result.degradation).toBe('rejected 0 and could not fetch 2 of 21 records (9.5 %, more than 5 %)');
    expect(await storedBooks('B-')).toHaveLength(8);
  });

  it('stops the sweep and fails the run when most of the books answered are unavailable: an outage, not a few markets', async () => {
    const ids = marketIds('C', OUTAGE_MIN_BOOKS * 3);
    const { server: s, client: c } = await upstream(ids, () => BOOK_UNAVAILABLE);
    await expect(sync(c)).rejects.toThrow(
      /order books answered 502 after every retry: the order-book service looks down, so the sweep stopped/,
    );
    const [run] = await db.sql<{ status: string }[]>`select status from prediction.ingest_runs order by run_id desc limit 1`;
    expect(run?.status).toBe('failed');
    const asked = ids.filter((id) => bookRequests(s, id) > 0).length;
    expect(asked).toBeGreaterThanOrEqual(OUTAGE_MIN_BOOKS);
    expect(asked).toBeLessThan(ids.length);
  });
});

describe('a listing whose paging cannot be followed', () => {
  it('is given up alone: its pages so far are kept, the other phases run, and the run is degraded, not failed', async () => {
    const page = (start: number, ids: string[], end: number) => ({
      json: {
        data: ids.map((id) => wireEvent(id, { markets: [wireMarket(`${id}-M`)] })),
        pagination: { start, end, total: 60, hasNext: true },
      },
    });
    const { server: s, client: c } = await upstream(
      [],
      () => ({ json: null }),
      (a) =>
        // The second page does not advance: its end is its start.
        Number(a.query.get('start')) === 0 ? page(0, ['D-E01', 'D-E02'], 20) : page(20, ['D-E03'], 20),
    );
    const result = await sync(c);
    expect(result.status).toBe('degraded');
    expect(result.degradation).toMatch(/^1 listing was given up before the end: polymarket\/all: .*did not advance/);
    const events = await db.sql<
      { event_id: string }[]
    >`select event_id from prediction.events where starts_with(event_id, 'D-') order by 1`;
    expect(events.map((e) => e.event_id)).toEqual(['D-E01', 'D-E02', 'D-E03']);
    // The order-book sweep still ran, over the markets of every page read.
    expect(['D-E01-M', 'D-E02-M', 'D-E03-M'].map((id) => bookRequests(s, id))).toEqual([1, 1, 1]);
    const [coverage] = await db.sql<{ complete: boolean; pages: number }[]>`
      select complete, pages from prediction.crawl_coverage where run_id = ${result.runId} and provider = 'polymarket' and category = 'all'`;
    expect(coverage).toEqual({ complete: false, pages: 2 });
  });
});
