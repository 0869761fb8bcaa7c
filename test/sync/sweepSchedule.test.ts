import { afterEach, beforeAll, describe, expect, it } from 'vitest';

import { createPredictionClient, type PredictionClient } from '../../src/api/client/index.js';
import { ENDPOINTS } from '../../src/api/endpoints/requests.js';
import { parseEvent, parseTradeList } from '../../src/api/parse.js';
import { selectBookFetchOutcomes } from '../../src/sql/status/selectBookFetchOutcomes.js';
import { writeEvents } from '../../src/store/writeEvents.js';
import { writeTrades } from '../../src/store/writeTrades.js';
import type { PlanSpan } from '../../src/sync/planEndMs.js';
import { sweepOrderBooks } from '../../src/sync/sweepOrderBooks.js';
import { TradedBooks } from '../../src/sync/TradedBooks.js';
import { type RecordingServer, startRecordingServer } from '../api/client/helpers/recordingServer.js';
import { requestedId, wireEvent, wireMarket, wireTrade } from '../api/client/helpers/wire.js';
import { sweepContext } from '../helpers/sweepContext.js';
import { useTestDatabase } from '../helpers/testDatabase.js';

const MARKETS = 40;
const db = await useTestDatabase();
let server: RecordingServer | undefined;
let client: PredictionClient | undefined;

beforeAll(async () => {
  // M-0 trades a thousand times more than the others: the volume prior makes it the busiest.
  const events = Array.from({ length: MARKETS }, (_, i) =>
    parseEvent(
      wireEvent(`E-${i}`, {
        markets: [
          wireMarket(`M-${i}`, { pricing: { buyYesPriceUsd: 650000, sellYesPriceUsd: 640000, volume: i === 0 ? 1_000_000 : 1_000 } }),
        ],
      }),
      { provider: 'polymarket' },
    ),
  );
  await writeEvents(db.sql, { runId: null, endpoint: '/events', events, observedAt: new Date(Date.now() - 60_000) });
});
afterEach(async () => {
  await client?.close();
  await server?.close();
});

/**
 * A sweep to a deadline `sec` away at `fetchesPerSec`; M-0's book changes at every fetch, the
 * others never. `during` runs alongside it, seeing the fetches so far (ids, and when each arrived).
 * Returns the ids fetched, in order.
 */
async function scheduledSweep(
  sec: number,
  fetchesPerSec: number,
  movers?: (fetched: readonly string[]) => Promise<ReadonlyMap<string, number>>,
  extra: {
    planSpan?: PlanSpan;
    traded?: TradedBooks;
    during?: (fetched: readonly string[], atMs: readonly number[]) => Promise<void>;
  } = {},
): Promise<string[]> {
  const fetched: string[] = [];
  const atMs: number[] = [];
  server = await startRecordingServer((a) => {
    const id = requestedId(a.path);
    fetched.push(id);
    atMs.push(Date.now());
    const size = id === 'M-0' ? fetched.length : 100;
    return { json: { yes: [[64, size]], no: [[35, 80]] } };
  });
  client = createPredictionClient({ baseUrl: server.baseUrl, allowKeyless: true, rateLimit: { requests: 1_000_000 } });
  const ctx = await sweepContext(db.sql, client);
  const deadline = new Date(Date.now() + sec * 1000);
  await Promise.all([
    sweepOrderBooks(ctx, {
      limit: null,
      deadline,
      fetchesPerSec,
      movers: movers?.(fetched),
      planSpan: extra.planSpan,
      traded: extra.traded,
    }),
    extra.during?.(fetched, atMs),
  ]);
  return fetched;
}

/** A market's prediction.book_fetches counts. */
async function fetchCounts(marketId: string) {
  const [row] = await db.sql<
    {
      unchanged_fetches: number;
      signalled_fetches: number;
      signalled_changed_fetches: number;
      signalled_interval_sec: number;
      signalled_lag_sec: number;
    }[]
  >`select unchanged_fetches, signalled_fetches, signalled_changed_fetches, signalled_interval_sec, signalled_lag_sec
    from prediction.book_fetches where market_id = ${marketId}`;
  return row!;
}

/** The quiet books of `fetched`, in order, less those with fills (an earlier test's): fills raise a book's rate. */
async function quietUntraded(fetched: readonly string[]): Promise<string[]> {
  const traded = new Set((await db.sql<{ market_id: string }[]>`select distinct market_id from prediction.trades`).map((r) => r.market_id));
  return fetched.filter((id) => id !== 'M-0' && !traded.has(id));
}

describe('the scheduled sweep', () => {
  it('fetches every new market, then the busiest book several times within one sweep, keeping every state and each fetch outcome', async () => {
    // First sweep: every market is new (never fetched): each once, first.
    const first = await scheduledSweep(6, 12);
    expect(new Set(first.slice(0, MARKETS)).size).toBe(MARKETS);

    const second = await scheduledSweep(6, 12);
    const hot = second.filter((id) => id === 'M-0').length;
    expect(hot).toBeGreaterThanOrEqual(3);
    // Paced: about 12 × 1.1 fetches a second to the hand-over (5.4 s), not all at once.
    expect(second.length).toBeLessThan(6 * 12 * 1.1 + 2);
    expect(hot).toBeGreaterThan(second.filter((id) => id === 'M-1').length);

    // Every fetch of M-0 found a new book and stored it; the others confirmed theirs.
    const allHot = [...first, ...second].filter((id) => id === 'M-0').length;
    const [snapshots] = await db.sql<
      { n: number }[]
    >`select count(*)::int as n from prediction.orderbook_snapshots where market_id = 'M-0'`;
    expect(snapshots!.n).toBe(allHot);
    const rows = await db.sql<{ market_id: string; fetches: number; changed_fetches: number; unchanged_fetches: number }[]>`
      select market_id, fetches, changed_fetches, unchanged_fetches from prediction.book_fetches where market_id in ('M-0', 'M-1') order by market_id`;
    expect(rows[0]).toMatchObject({ market_id: 'M-0', fetches: allHot, changed_fetches: allHot - 1, unchanged_fetches: 0 });
    const quiet = [...first, ...second].filter((id) => id === 'M-1').length;
    expect(rows[1]).toMatchObject({ market_id: 'M-1', fetches: quiet, changed_fetches: 0, unchanged_fetches: quiet - 1 });

    const outcomes = await selectBookFetchOutcomes(db.sql, new Date());
    expect(outcomes.comparedFetches).toBe(first.length + second.length - MARKETS);
    expect(outcomes.changedShare).toBeCloseTo((allHot - 1) / outcomes.comparedFetches, 9);
    expect(outcomes.activeDecileMarkets).toBeGreaterThan(0);
  });

  it('fetches first a market whose listed prices moved since its last book', async () => {
    await scheduledSweep(3, 12);
    const moved = parseEvent(
      wireEvent('E-7', { markets: [wireMarket('M-7', { pricing: { buyYesPriceUsd: 700000, sellYesPriceUsd: 690000, volume: 1_000 } })] }),
      { provider: 'polymarket' },
    );
    await writeEvents(db.sql, { runId: null, endpoint: '/events', events: [moved], observedAt: new Date() });
    const before = await fetchCounts('M-7');
    const next = await scheduledSweep(3, 12);
    expect(next[0]).toBe('M-7');
    // The move brought that fetch forward: it counts apart, as signalled, not as a blind sample of
    // the book's rate (its book had not changed: no signalled change). Any later fetch is blind.
    const after = await fetchCounts('M-7');
    const times = next.filter((id) => id === 'M-7').length;
    expect(after.signalled_fetches - before.signalled_fetches).toBe(1);
    expect(after.signalled_changed_fetches).toBe(before.signalled_changed_fetches);
    expect(after.unchanged_fetches - before.unchanged_fetches).toBe(times - 1);
    expect(after.signalled_interval_sec).toBeGreaterThan(before.signalled_interval_sec);
  });

  it('fetches first a quiet market that traded since its last book, not one whose trade its book already holds', async () => {
    const first = await scheduledSweep(2, 12);
    const [tradedLater, tradedBefore] = first.filter((id) => id !== 'M-0').slice(-2);
    const trade = (marketId: string, atSec: number, n: number) => wireTrade(marketId, `E-${marketId.slice(2)}`, atSec, n);
    const nowSec = Math.floor(Date.now() / 1000);
    await writeTrades(db.sql, {
      runId: null,
      endpoint: ENDPOINTS.listTrades,
      // Whole seconds, as the feed dates them: the later trade is dated a second after now.
      trades: parseTradeList({ data: [trade(tradedLater!, nowSec + 1, 1), trade(tradedBefore!, nowSec - 60, 2)] }).trades,
      polledAt: new Date(),
    });
    const next = await scheduledSweep(2, 12);
    expect(next[0]).toBe(tradedLater);
    expect(next.indexOf(tradedBefore!)).not.toBe(1);
  });

  it('plans again while it runs: a market whose listed prices moved is fetched at the next plan, not at its turn', async () => {
    await scheduledSweep(2, 12);
    let mover = '';
    let movedAtMs = 0;
    let arrivedAtMs: readonly number[] = [];
    // Plans of 2 s (the last one longer, to the hand-over at 7.2 s): the move is written in the first.
    const fetched = await scheduledSweep(8, 12, undefined, {
      planSpan: { everySec: 2, leastFetches: 1 },
      during: async (ids, atMs) => {
        arrivedAtMs = atMs;
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        // A quiet book fetched lately, not due again for seconds, but stored as fetched before the
        // move (a batch's answers are stamped with the last one's arrival, within ARRIVAL_GROUP_MS).
        const settledMs = Date.now() - 500;
        mover = ids.filter((id, i) => id !== 'M-0' && atMs[i]! < settledMs).at(-1)!;
        const moved = parseEvent(
          wireEvent(`E-${mover.slice(2)}`, {
            markets: [wireMarket(mover, { pricing: { buyYesPriceUsd: 710000, sellYesPriceUsd: 700000, volume: 1_000 } })],
          }),
          { provider: 'polymarket' },
        );
        movedAtMs = Date.now();
        await writeEvents(db.sql, { runId: null, endpoint: '/events', events: [moved], observedAt: new Date(movedAtMs) });
      },
    });
    const next = fetched.findIndex((id, i) => id === mover && arrivedAtMs[i]! > movedAtMs);
    expect(next).toBeGreaterThan(0);
    // The next plan starts at most a plan's span (2 s) after the first one, which began before the move.
    expect(arrivedAtMs[next]! - movedAtMs).toBeLessThan(1_500);
  });

  it('fetches the movers it is told of while it runs next, ahead of the rest of its order', async () => {
    // Told at once: they are the first fetches. Told after the first books arrived: right after the fetches already under way.
    const first = await scheduledSweep(2, 12, () =>
      Promise.resolve(
        new Map([
          ['M-30', Date.now()],
          ['M-31', Date.now()],
        ]),
      ),
    );
    expect(first.slice(0, 2)).toEqual(['M-30', 'M-31']);
    // The mover told later is the quiet book fetched last: of all books, the one its order would take last.
    const mover = (await quietUntraded(first)).at(-1)!;
    let toldAfter = 0;
    const later = await scheduledSweep(2, 12, async (fetched) => {
      while (fetched.length < 4) await new Promise((resolve) => setTimeout(resolve, 5));
      toldAfter = fetched.length;
      return new Map([[mover, Date.now()]]);
    });
    const at = later.indexOf(mover);
    expect(at).toBeGreaterThanOrEqual(toldAfter);
    // At 12 a second, batches of 3 (sweepBatch): at most this batch and the next are under way when told.
    expect(at).toBeLessThanOrEqual(toldAfter + 6);
  });

  it('fetches next a quiet book the trade feed tells traded since its last fetch, in place of its turn; not one fetched since', async () => {
    const first = await scheduledSweep(2, 12);
    // The two quiet books its order takes last: the trades' books, each far from its turn.
    const [stale, fresh] = (await quietUntraded(first)).slice(-2);
    const before = await fetchCounts(stale!);
    const traded = new TradedBooks();
    let toldAfter = 0;
    let tradedAtMs = 0;
    const later = await scheduledSweep(2, 12, undefined, {
      traded,
      during: async (fetched) => {
        while (fetched.length < 4) await new Promise((resolve) => setTimeout(resolve, 5));
        toldAfter = fetched.length;
        const nowMs = Date.now();
        tradedAtMs = nowMs - 1_000;
        traded.tell([
          { marketId: stale!, tradedAtMs },
          // Traded before the first sweep fetched it: its stored book holds the trade.
          { marketId: fresh!, tradedAtMs: nowMs - 60_000 },
          { marketId: 'M-unknown', tradedAtMs: nowMs },
        ]);
      },
    });
    const at = later.indexOf(stale!);
    expect(at).toBeGreaterThanOrEqual(toldAfter);
    expect(at).toBeLessThanOrEqual(toldAfter + 6);
    // Counted as signalled: its book's rate is not raised by a fetch the trade brought forward.
    const after = await fetchCounts(stale!);
    expect(after.signalled_fetches).toBe(before.signalled_fetches + 1);
    // With its lag behind the fill, not behind the telling: told a second after the fill.
    const lagSec = after.signalled_lag_sec - before.signalled_lag_sec;
    expect(lagSec).toBeGreaterThanOrEqual(1);
    expect(lagSec).toBeLessThan((Date.now() - tradedAtMs) / 1000);
    // Brought forward, not added: once in this sweep, as before.
    expect(later.filter((id) => id === stale).length).toBe(first.filter((id) => id === stale).length);
    const freshAt = later.indexOf(fresh!);
    expect(freshAt === -1 || freshAt > toldAfter + 6).toBe(true);
    expect(later).not.toContain('M-unknown');
  });
});
