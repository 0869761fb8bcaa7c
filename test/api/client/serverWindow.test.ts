import { describe, expect, it, vi } from 'vitest';

import { createPredictionClient } from '../../../src/api/client/index.js';
import { ServerWindow } from '../../../src/api/client/ServerWindow.js';
import { CONCRETE_CATEGORIES, KNOWN_PROVIDERS } from '../../../src/domain/types.js';
import { startSimulator } from '../../../src/simulator/index.js';
import { collectStatus } from '../../../src/status/collectStatus.js';
import { formatStatus } from '../../../src/status/formatStatus.js';
import { runSyncCycle } from '../../../src/sync/runSyncCycle.js';
import { useTestDatabase } from '../../helpers/testDatabase.js';

/** Pacing on the gateway's x-ratelimit-* headers, which every answer carries. */

const db = await useTestDatabase();

const headers = (remaining: number, current: number, resetAtMs: number) => ({
  'x-ratelimit-remaining': String(remaining),
  'x-ratelimit-current': String(current),
  'x-ratelimit-reset': String(resetAtMs / 1000),
});

/** Resolves whether `promise` settles within a few turns of the event loop. */
async function settles(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  for (let i = 0; i < 20; i++) await Promise.resolve();
  return done;
}

describe('ServerWindow', () => {
  const signal = new AbortController().signal;

  it('does not pace a server that sends no rate-limit headers', async () => {
    const window = new ServerWindow();
    for (let i = 0; i < 50; i++) window.answered(await window.reserve(signal), {});
    expect(window.snapshot()).toBeNull();
  });

  it('sends no more than an answer says is left, then one request at the window’s end to learn the next', async () => {
    vi.useFakeTimers({ now: 1_800_000_000_000 });
    try {
      const window = new ServerWindow();
      const resetAt = Date.now() + 4000;
      // The first request learns the window: 5 per window, 4 left after it.
      const first = await window.reserve(signal);
      window.answered(first, headers(4, 1, resetAt));
      const sent = [];
      for (let i = 0; i < 4; i++) sent.push(await window.reserve(signal));
      // Four are in flight, unanswered: a sixth must wait for the window to end.
      const sixth = window.reserve(signal);
      expect(await settles(sixth)).toBe(false);
      for (const [i, seq] of sent.entries()) window.answered(seq, headers(3 - i, 2 + i, resetAt));
      await vi.advanceTimersByTimeAsync(3999);
      expect(await settles(sixth)).toBe(false);
      // The window has ended: one request goes to learn the next; another waits for its answer.
      await vi.advanceTimersByTimeAsync(1);
      expect(await settles(sixth)).toBe(true);
      const seventh = window.reserve(signal);
      expect(await settles(seventh)).toBe(false);
      // A sliding window frees one slot at a time: its answer says so, and the seventh waits for that.
      window.answered(await sixth, headers(0, 5, Date.now() + 1000));
      await vi.advanceTimersByTimeAsync(999);
      expect(await settles(seventh)).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(await settles(seventh)).toBe(true);
      expect(window.snapshot()).toMatchObject({ requests: 5, windowSec: 4, requestsPerMinute: 75 });
    } finally {
      vi.useRealTimers();
    }
  });

  it('takes a request numbered earlier and not answered yet as counted after an answer, until its own answer says', async () => {
    const window = new ServerWindow();
    const resetAt = Date.now() + 60_000;
    // 5 per window; the first answer leaves 4.
    window.answered(await window.reserve(signal), headers(4, 1, resetAt));
    const second = await window.reserve(signal);
    const third = await window.reserve(signal);
    // The server counts the third first: its answer leaves 3, not counting the second, still in flight.
    window.answered(third, headers(3, 2, resetAt));
    const fourth = await window.reserve(signal);
    const fifth = await window.reserve(signal);
    // Five are counted or in flight: a sixth would be one too many.
    const sixth = window.reserve(signal);
    expect(await settles(sixth)).toBe(false);
    // The second's answer shows the server counted it after the third; the window is full.
    window.answered(second, headers(2, 3, resetAt));
    window.answered(fourth, headers(1, 4, resetAt));
    window.answered(fifth, headers(0, 5, resetAt));
    expect(await settles(sixth)).toBe(false);
  });

  it('frees what an unanswered earlier request held once its answer shows the server counted it first', async () => {
    const window = new ServerWindow();
    const resetAt = Date.now() + 60_000;
    window.answered(await window.reserve(signal), headers(4, 1, resetAt));
    const second = await window.reserve(signal);
    const third = await window.reserve(signal);
    // Counted in order, answered out of order: the third's answer alone leaves room for one more.
    window.answered(third, headers(2, 3, resetAt));
    await window.reserve(signal);
    const fifth = window.reserve(signal);
    expect(await settles(fifth)).toBe(false);
    // The second's answer says it came first: its send was in the third's count, and one more may go.
    window.answered(second, headers(3, 2, resetAt));
    expect(await settles(fifth)).toBe(true);
    expect(await settles(window.reserve(signal))).toBe(false);
  });

  it('lets an abort end the wait', async () => {
    const window = new ServerWindow();
    window.answered(await window.reserve(signal), headers(0, 1, Date.now() + 60_000));
    const stop = new AbortController();
    const waiting = window.reserve(stop.signal);
    stop.abort(new Error('stopped'));
    await expect(waiting).rejects.toThrow('stopped');
  });
});

describe('a sync behind a gateway of 5 requests per 4 s, with the plan set to 6,000 requests a minute', () => {
  it('stores everything with at most 3 answers of 429, and says once that the plan is above what the server grants', async () => {
    const sim = await startSimulator({ shape: 'live', seed: 11, markets: 12, gatewayWindow: { requests: 5, windowMs: 4000 } });
    const warnings: string[] = [];
    const logger = {
      debug: () => undefined,
      info: () => undefined,
      warn: (_: object, message?: string) => void warnings.push(message ?? ''),
    };
    const client = createPredictionClient({
      baseUrl: sim.url,
      apiKey: 'any-key',
      rateLimit: { requests: 6000, windowMs: 60_000 },
      logger,
    });
    try {
      const result = await runSyncCycle(db.sql, client, {
        providers: KNOWN_PROVIDERS,
        categories: CONCRETE_CATEGORIES,
        maxOrderBooks: null,
        now: () => new Date(sim.world.nowSec * 1000),
      });
      expect(result.status).toBe('succeeded');
      const counters = sim.counters();
      expect(counters.byStatus['429'] ?? 0).toBeLessThanOrEqual(3);
      // Everything the world lists was stored, and every open market's book.
      const listed = sim.world.events().filter((e) => e.isActive);
      const [counts] = await db.sql<{ events: number; markets: number; books: number }[]>`
        select (select count(*)::int from prediction.events) as events, (select count(*)::int from prediction.markets) as markets,
               (select count(distinct market_id)::int from prediction.orderbook_snapshots) as books`;
      expect(counts!.events).toBe(listed.length);
      expect(counts!.markets).toBe(listed.reduce((n, e) => n + e.marketIds.length, 0));
      expect(counts!.books).toBeGreaterThan(0);
      expect(client.stats().serverWindow).toMatchObject({ requests: 5, windowSec: 4, requestsPerMinute: 75 });
      expect(warnings.filter((w) => w.includes('above what the server grants'))).toHaveLength(1);
      // The run keeps what the server granted, for status.
      const [run] = await db.sql`select server_rate_limit from prediction.ingest_runs where run_id = ${result.runId}`;
      expect(run!.server_rate_limit).toMatchObject({ requests: 5, window_seconds: 4, requests_per_minute: 75 });
      // status shows it beside the configured plan, read from the database.
      const report = await collectStatus(db.sql, {
        at: new Date(),
        since: new Date(Date.now() - 3_600_000),
        thresholds: { listingMaxAgeSec: 600, bookMaxAgeSec: 900 },
        providers: KNOWN_PROVIDERS,
        categories: CONCRETE_CATEGORIES,
        rateLimitRpm: 6000,
        retentionMonths: null,
      });
      expect(report.requestRate.server).toMatchObject({ requests: 5, windowSeconds: 4, requestsPerMinute: 75 });
      expect(formatStatus(report)).toMatch(
        /Server's window \(as of .+\): 5 requests per 4 s, about 75\/min: below the plan's 6000\/min, so the server's window paces the client/,
      );
    } finally {
      await client.close();
      await sim.stop();
    }
  }, 120_000);

  it('answers a 429 with the gateway’s body and no Retry-After', async () => {
    const sim = await startSimulator({ seed: 3, markets: 5, gatewayWindow: { requests: 1, windowMs: 60_000 } });
    try {
      const ok = await fetch(`${sim.url}/events`, { headers: { 'x-api-key': 'k' } });
      expect(ok.status).toBe(200);
      expect(ok.headers.get('x-ratelimit-remaining')).toBe('0');
      expect(ok.headers.get('x-ratelimit-current')).toBe('1');
      expect(Number(ok.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000);
      const limited = await fetch(`${sim.url}/events`, { headers: { 'x-api-key': 'k' } });
      expect(limited.status).toBe(429);
      expect(limited.headers.get('retry-after')).toBeNull();
      expect(await limited.json()).toEqual({ code: 429, message: '[API Gateway] Too many requests' });
    } finally {
      await sim.stop();
    }
  });
});
