import { describe, expect, it } from 'vitest';

import { replayRequestBudget } from '../../src/plan/replayRequestBudget.js';

const everyMs = (periodMs: number, count: number) => Array.from({ length: count }, (_, i) => i * periodMs);

describe('replayRequestBudget', () => {
  it('sends the crawl, then the details, then books, within the limit', () => {
    const replay = replayRequestBudget({
      limit: { requests: 10, windowMs: 1000 },
      crawl: { ticksMs: [0], requestsPerRun: 4 },
      trades: { ticksMs: [], requestsPerRun: 0 },
      details: { ticksMs: [0], requestsPerRun: 3 },
      orderbooks: { ticksMs: everyMs(1000, 4), targets: 100, booksPerBatch: 4 },
      measureFromMs: 0,
      endMs: 3500,
    });
    expect(replay.requests.crawl).toBe(4);
    expect(replay.requests.details).toBe(3);
    // The first window holds the 7 of the crawl and details and 3 books: the first batch's fourth
    // book waits for the window, past the sweep's hand-over at 0.9 s, and is never sent.
    expect(replay.sweeps[0]).toEqual({ startMs: 0, endMs: 900, books: 3, cutShort: true });
    // From 1 s on each tick finds the job free and the window empty: 10 books (batches of 4, 4, 2
    // sent), the third batch's last two still waiting at the hand-over.
    expect(replay.sweeps.slice(1)).toEqual([
      { startMs: 1000, endMs: 1900, books: 10, cutShort: true },
      { startMs: 2000, endMs: 2900, books: 10, cutShort: true },
    ]);
    expect(replay.skippedTicks.orderbooks).toBe(0);
    // The sweep at 3 s has sent its 10 by the end, 3.5 s, without having ended.
    expect(replay.requests.orderbooks).toBe(3 + 10 + 10 + 10);
  });

  it('counts the listing pages a sweep reads among its requests, not its books', () => {
    const replay = (listingPages: number) =>
      replayRequestBudget({
        limit: { requests: 10, windowMs: 1000 },
        crawl: { ticksMs: [], requestsPerRun: 0 },
        trades: { ticksMs: [], requestsPerRun: 0 },
        details: { ticksMs: [], requestsPerRun: 0 },
        orderbooks: { ticksMs: everyMs(1000, 4), targets: 100, booksPerBatch: 4, listingPages },
        measureFromMs: 0,
        endMs: 3000,
      });
    const without = replay(0);
    const with2 = replay(2);
    // Each sweep: 10 requests in its window; 2 of them pages, so 8 books.
    expect(without.sweeps.map((s) => s.books)).toEqual([10, 10, 10]);
    expect(with2.sweeps.map((s) => s.books)).toEqual([8, 8, 8]);
    expect(with2.sweepListingPages).toBe(6);
    expect(without.sweepListingPages).toBe(0);
    expect(with2.requests.orderbooks).toBe(without.requests.orderbooks);
  });

  it('sends the trade poll after the crawl and before the details', () => {
    const replay = (endMs: number) =>
      replayRequestBudget({
        limit: { requests: 3, windowMs: 1000 },
        crawl: { ticksMs: [0], requestsPerRun: 2 },
        trades: { ticksMs: [0], requestsPerRun: 1 },
        details: { ticksMs: [0], requestsPerRun: 1 },
        orderbooks: { ticksMs: [], targets: 0, booksPerBatch: 1 },
        measureFromMs: 0,
        endMs,
      }).requests;
    expect(replay(999)).toEqual({ crawl: 2, trades: 1, details: 0, orderbooks: 0 });
    expect(replay(1001)).toEqual({ crawl: 2, trades: 1, details: 1, orderbooks: 0 });
  });

  it('runs a sweep at every tick when every book fits, and leaves the rest of the budget', () => {
    const replay = replayRequestBudget({
      limit: { requests: 100, windowMs: 1000 },
      crawl: { ticksMs: [], requestsPerRun: 0 },
      trades: { ticksMs: [], requestsPerRun: 0 },
      details: { ticksMs: [], requestsPerRun: 0 },
      orderbooks: { ticksMs: everyMs(1000, 10), targets: 30, booksPerBatch: 16 },
      measureFromMs: 2000,
      endMs: 10_000,
    });
    expect(replay.sweeps).toHaveLength(8);
    expect(replay.sweeps.filter((s) => !(s.books === 30 && !s.cutShort && s.endMs === s.startMs))).toEqual([]);
    expect(replay.skippedTicks.orderbooks).toBe(0);
    expect(replay.requests.orderbooks).toBe(8 * 30);
  });
});
