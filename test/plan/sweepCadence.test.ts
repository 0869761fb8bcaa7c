import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createPredictionClient, type PredictionClient } from '../../src/api/client/index.js';
import { ALL_CATEGORIES, KNOWN_PROVIDERS } from '../../src/domain/types.js';
import { createLogger } from '../../src/log/createLogger.js';
import { bookRefresh } from '../../src/plan/bookRefresh.js';
import { readUniverse } from '../../src/plan/readUniverse.js';
import { replayRequestBudget } from '../../src/plan/replayRequestBudget.js';
import { jobWork } from '../../src/service/jobKinds.js';
import { startScheduler } from '../../src/service/startScheduler.js';
import type { Simulator } from '../../src/simulator/index.js';
import { DEFAULT_BATCH_SIZE, runJob } from '../../src/sync/runJob.js';
import { booksPerBatch, sweepOrderBooks } from '../../src/sync/sweepOrderBooks.js';
import { API_KEY, startHarness } from '../helpers/syncHarness.js';
import { createTestDatabase, type TestDatabase } from '../helpers/testDatabase.js';
import { installCronClock } from '../service/cronClock.js';

/**
 * What the planner says of the order-book sweep against the sweep itself: its size and cadence
 * under a limit (the scheduled sweep on a three-second schedule, a window of about a second, on a
 * fake clock), and how its priority order spreads a given capacity over the books (sweeps on a
 * manual clock).
 */
const providers = KNOWN_PROVIDERS;
const categories = [ALL_CATEGORIES];
const settings = { orderBookMaxAgeSec: 3600, maxRejectedPercent: 5 };

let sim: Simulator;
let newClient: () => PredictionClient;
const databases: TestDatabase[] = [];

beforeAll(async () => {
  ({ sim, newClient } = await startHarness({ seed: 5, markets: 150 }));
});
afterAll(async () => {
  await Promise.all(databases.map((d) => d.close()));
  await sim.stop();
});

/** A database that has crawled the world once and fetched no book yet; its open markets. */
async function crawledDatabase(): Promise<{ db: TestDatabase; openMarkets: number }> {
  const db = await createTestDatabase();
  databases.push(db);
  const client = newClient();
  try {
    const work = jobWork('crawl', settings);
    await runJob(db.sql, client, 'crawl', { providers, categories }, (ctx) => work(ctx, new Date(8.64e15)));
  } finally {
    await client.close();
  }
  const universe = await readUniverse(db.sql, { providers, categories, orderBookMaxAgeSec: 3600, now: new Date() });
  return { db, openMarkets: universe.openMarkets };
}

describe('the sweep as planned', () => {
  it('under a limit it cannot meet, the scheduled sweep fetches what the replay of its budget says and hands over at every tick', async () => {
    const { db, openMarkets } = await crawledDatabase();
    const limit = { requests: 20, windowMs: 1_000, marginMs: 50 };
    const periodMs = 3_000;
    const replay = replayRequestBudget({
      limit: { requests: limit.requests, windowMs: limit.windowMs + limit.marginMs },
      crawl: { ticksMs: [], requestsPerRun: 0 },
      trades: { ticksMs: [], requestsPerRun: 0 },
      details: { ticksMs: [], requestsPerRun: 0 },
      orderbooks: {
        ticksMs: Array.from({ length: 10 }, (_, i) => i * periodMs),
        targets: openMarkets,
        booksPerBatch: booksPerBatch(DEFAULT_BATCH_SIZE),
      },
      measureFromMs: 0,
      endMs: 10 * periodMs,
    });
    // The replay: a sweep at every tick, each cut short by its hand-over (60 books: three windows' worth).
    expect(replay.skippedTicks.orderbooks).toBe(0);
    expect(replay.sweeps.filter((s) => !s.cutShort)).toEqual([]);
    expect(replay.sweeps.slice(1).map((s, i) => s.startMs - replay.sweeps[i]!.startMs)).toEqual(replay.sweeps.slice(1).map(() => periodMs));
    expect(replay.sweeps[0]!.books).toBeLessThan(openMarkets);

    // The fake clock (see cronClock.ts) starts near the wall clock the crawl observed at; its first
    // tick is one second later.
    const sweepCount = 3;
    const firstTickMs = (Math.floor(Date.now() / periodMs) + 2) * periodMs;
    const tickSeconds = Array.from({ length: sweepCount }, (_, i) => new Date(firstTickMs + i * periodMs));
    const clock = installCronClock(new Date(firstTickMs - 1_000));
    let stop = () => Promise.resolve();
    try {
      const client = createPredictionClient({ baseUrl: sim.url, apiKey: API_KEY, rateLimit: limit });
      const scheduler = startScheduler({
        sql: db.sql,
        clientFor: () => client,
        jobs: [{ name: 'orderbooks', schedule: '*/3 * * * * *' }],
        providers,
        categories,
        settings,
        instanceId: 'plan-test',
        logger: createLogger({ level: 'silent' }),
        // The fake clock: the database's, which runs would take by default, is not faked.
        now: () => new Date(),
      });
      stop = () => scheduler.stop().then(() => client.close());
      expect(clock.watchNewTasks()).toBe(1);
      // Settled: nothing in flight, and either the sweep waits for its rate window (it has calls
      // queued only then: the hand-over drops them), which only the clock can open, or every tick so
      // far is done with (claimed, run, written, its lease released). The clock moves a millisecond
      // at a time and only once settled, so each window's sends, the hand-over and the next tick
      // happen at their own instants, as in the replay, however long the database and the
      // simulator take in real time.
      const settled = () => {
        const { size, pending } = client.stats().queue;
        if (pending > 0) return false;
        if (size > 0) return true;
        return tickSeconds.filter((t) => t.getTime() <= Date.now()).every((t) => clock.outcomes(t).length > 0);
      };
      // Up to the instant before the next tick: the last sweep has handed over and ended by then.
      while (Date.now() < firstTickMs + sweepCount * periodMs - 1) {
        clock.advance(1);
        await clock.until(`the sweep settled at ${new Date(Date.now()).toISOString()}`, settled);
      }
    } finally {
      try {
        // Still on the fake clock: a failure above may leave a sweep waiting for its rate window.
        await clock.runUntilSettled(stop());
      } finally {
        clock.uninstall();
      }
    }

    // Each tick ran its sweep to the end: none skipped as overlapping the one before.
    expect(tickSeconds.map((t) => clock.outcomes(t).map((o) => o.outcome))).toEqual(tickSeconds.map(() => ['finished']));
    const runs = await db.sql<{ status: string; started_at: Date; finished_at: Date; requests: number }[]>`
      select status, started_at, finished_at, requests from prediction.ingest_runs where job = 'orderbooks' order by started_at`;
    const replayed = replay.sweeps.slice(0, sweepCount);
    expect(runs.map((r) => r.status)).toEqual(replayed.map(() => 'succeeded'));
    expect(runs.map((r) => r.requests)).toEqual(replayed.map((s) => s.books));
    // Each run started at its tick and ended at its hand-over, to the millisecond.
    expect(runs.map((r) => r.started_at.getTime() - firstTickMs)).toEqual(replayed.map((s) => s.startMs));
    expect(runs.map((r) => r.finished_at.getTime() - firstTickMs)).toEqual(replayed.map((s) => s.endMs));
  });

  /** Runs `count` sweeps of at most `books`, `everySec` apart on a manual clock; the sweeps each market's book was fetched in. */
  async function sweeps(db: TestDatabase, options: { books: number; count: number; everySec: number; maxAgeSec: number }) {
    const fetchedIn = new Map<string, number[]>();
    const client = newClient();
    try {
      for (let i = 0; i < options.count; i++) {
        const at = new Date((sim.world.nowSec + i * options.everySec) * 1000);
        sim.resetRequests();
        await runJob(db.sql, client, 'orderbooks', { providers, categories, now: () => at }, async (ctx) => {
          await sweepOrderBooks(ctx, { limit: options.books, maxAgeSec: options.maxAgeSec });
        });
        for (const r of sim.requests) {
          const marketId = decodeURIComponent(r.path.split('/').at(-1)!);
          fetchedIn.set(marketId, [...(fetchedIn.get(marketId) ?? []), i]);
        }
      }
    } finally {
      await client.close();
    }
    return fetchedIn;
  }

  const gapsOf = (fetchedIn: Map<string, number[]>, from: number) =>
    [...fetchedIn.values()]
      .flatMap((at) => at.slice(1).map((s, k) => [at[k]!, s] as const))
      .filter(([a]) => a >= from)
      .map(([a, b]) => b - a);

  /** What the planner says of sweeps of `books` every `everySec` over `openMarkets` books, all due. */
  const planOf = (openMarkets: number, cadence: { everySec: number; maxAgeSec: number; books: number }) =>
    bookRefresh({
      openMarkets,
      dueBooks: openMarkets,
      sweepEverySec: cadence.everySec,
      booksPerSweep: cadence.books,
      cutShort: true,
      maxAgeSec: cadence.maxAgeSec,
    });

  it('keeps every book within the max age in whole sweeps when those sweeps can fetch them all', async () => {
    const { db, openMarkets } = await crawledDatabase();
    const cadence = { everySec: 60, maxAgeSec: 150, books: Math.ceil(openMarkets / 2.5) };
    const plan = planOf(openMarkets, cadence);
    expect(plan.maxIntervalSec).toBe(180);
    const count = 16;
    const fetchedIn = await sweeps(db, { ...cadence, count });

    expect(fetchedIn.size).toBe(openMarkets);
    const gaps = gapsOf(fetchedIn, 0);
    expect(Math.max(...gaps) * 60).toBe(plan.maxIntervalSec);
    // No book is left waiting longer at the end either, and the spare went to some books more often.
    expect([...fetchedIn].filter(([, at]) => !(at.at(-1)! >= count - plan.maxIntervalSec! / 60))).toEqual([]);
    expect(Math.min(...gaps)).toBe(1);
  });

  it('past that capacity it fetches due books only, oldest first: each book about every open markets / books sweeps', async () => {
    const { db, openMarkets } = await crawledDatabase();
    const cadence = { everySec: 60, maxAgeSec: 150, books: Math.floor(openMarkets / 4.5) };
    const plan = planOf(openMarkets, cadence);
    expect(plan.maxIntervalSec).toBeNull();
    const sweepsPerBook = plan.meanIntervalSec / 60;
    const fetchedIn = await sweeps(db, { ...cadence, count: 20 });

    // After the first round (every book fetched once), each book comes round again in turn.
    const gaps = gapsOf(fetchedIn, Math.ceil(sweepsPerBook));
    expect(gaps.length).toBeGreaterThan(openMarkets);
    expect(gaps.filter((g) => g !== Math.floor(sweepsPerBook) && g !== Math.ceil(sweepsPerBook))).toEqual([]);
  });
});
