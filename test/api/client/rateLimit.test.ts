import { afterEach, describe, expect, it } from 'vitest';

import type { PredictionClient } from '../../../src/api/client/index.js';
import { type RecordingServer, startRecordingServer } from './helpers/recordingServer.js';
import { maxInAnyWindow, sendLog } from './helpers/sendLog.js';
import { testClient } from './helpers/testClient.js';
import { startThreadedServer } from './helpers/threadedServer.js';
import { watchStalls } from './helpers/watchStalls.js';
import { wireMarket } from './helpers/wire.js';

/**
 * Slack for clock granularity (p-queue stamps its window in whole milliseconds) and for the
 * thread being descheduled between p-queue's stamp and the interceptor's on a busy machine; each
 * test adds the longest hold-up of its event loop it measured (watchStalls).
 */
const TOLERANCE_MS = 15;
/** Allowance for latency jitter between sending and arriving (see the rateLimit option). */
const MARGIN_MS = 100;

describe('rate limiting', () => {
  let server: RecordingServer;
  let client: PredictionClient;
  afterEach(async () => {
    await client?.close();
    await server?.close();
  });

  // These two use a server on its own thread: on the test's event loop, arrival times would lag
  // behind whatever the client happens to be doing (parsing a response, say). A warm-up request
  // first, so that cold-start latency (JIT, first connection) does not skew the first burst; the
  // margin absorbs the remaining latency jitter, as it does in production.
  async function warmUp(c: PredictionClient, windowMs: number): Promise<void> {
    await c.getMarket('warmup');
    await new Promise((resolve) => setTimeout(resolve, windowMs + MARGIN_MS));
  }

  it('never exceeds the configured rate in any sliding window, retries included', async () => {
    const log = sendLog();
    // A quarter of the calls fail their first attempt with a 503, so retries share the limit.
    const threaded = await startThreadedServer({
      okBody: JSON.stringify(wireMarket('{{id}}')),
      failFirstAttempt: { status: 503, idMod: 4 },
    });
    // No margin: this checks the limiter itself.
    client = testClient(threaded.baseUrl, { rateLimit: { requests: 5, windowMs: 500, marginMs: 0 }, interceptors: [log.interceptor] });
    try {
      await warmUp(client, 500);
      const stalls = watchStalls();
      await Promise.all(Array.from({ length: 20 }, (_, i) => client.getMarket(`M-${i}`)));
      const toleranceMs = TOLERANCE_MS + stalls.stop();
      const arrivals = (await threaded.arrivals()).filter((a) => !a.url.includes('warmup'));
      expect(arrivals.filter((a) => a.status === 503)).toHaveLength(5);
      expect(arrivals).toHaveLength(25);
      // As sent: within clock granularity.
      const sent = arrivals.map((a) => log.sentAtMs[Number(a.seq)]!);
      expect(maxInAnyWindow(sent, 500 - toleranceMs)).toBeLessThanOrEqual(5);
      // As received: the server sees the sends shifted by each request's own latency, so allow
      // the spread of latencies measured in this run (a few ms on an idle machine).
      const latencies = arrivals.map((a, i) => a.atMs - sent[i]!);
      const spreadMs = Math.max(...latencies) - Math.min(...latencies);
      expect(
        maxInAnyWindow(
          arrivals.map((a) => a.atMs),
          500 - toleranceMs - spreadMs,
        ),
      ).toBeLessThanOrEqual(5);
      // The limiter is what spaced them out: 25 sends at 5 per window span at least 4 windows.
      expect(Math.max(...sent) - Math.min(...sent)).toBeGreaterThanOrEqual(4 * 500 - toleranceMs);
    } finally {
      await client.close();
      await threaded.close();
    }
  });

  it('a 429 storm completes, and nothing is sent during a pause', async () => {
    const log = sendLog();
    const RETRY_AFTER_MS = 80;
    // 20% of the calls (ids that are multiples of 5) are rate limited on their first attempt.
    const threaded = await startThreadedServer({
      okBody: JSON.stringify(wireMarket('{{id}}')),
      failFirstAttempt: {
        status: 429,
        headers: { 'retry-after': String(RETRY_AFTER_MS / 1000) },
        body: JSON.stringify({ code: 429, message: 'slow down' }),
        idMod: 5,
      },
    });
    client = testClient(threaded.baseUrl, {
      rateLimit: { requests: 20, windowMs: 200, marginMs: MARGIN_MS },
      interceptors: [log.interceptor],
      logger: log.logger,
    });
    log.watch(client);
    try {
      await warmUp(client, 200);
      const stalls = watchStalls();
      const results = await Promise.all(Array.from({ length: 60 }, (_, i) => client.getMarket(`M-${i}`)));
      const toleranceMs = TOLERANCE_MS + stalls.stop();
      const arrivals = (await threaded.arrivals()).filter((a) => !a.url.includes('warmup'));
      const storm = arrivals.filter((a) => a.status === 429);

      expect(results.filter((r) => !r.ok)).toEqual([]);
      expect(storm).toHaveLength(12);
      expect(arrivals).toHaveLength(72);
      expect(client.stats().rateLimited).toBe(12);
      expect(client.stats().retries).toBe(12);
      expect(log.sentWhilePausedMs).toEqual([]);

      for (const s of storm) {
        const pause = log.pauses.find((p) => p.target === s.url);
        expect(pause, `the client paused after the 429 for ${s.url}`).toMatchObject({ waitMs: RETRY_AFTER_MS });
        // Client side: nothing left between closing the gate and the end of the pause.
        expect(log.sentDuring(pause!), `sends during the pause ${JSON.stringify(pause)}`).toEqual([]);
        // Server side: whatever arrived inside the server's pause window had left before the
        // client could know about the 429 (it was already in flight).
        const inWindow = arrivals.filter((a) => a.atMs > s.atMs && a.atMs < s.atMs + RETRY_AFTER_MS);
        for (const a of inWindow) expect(log.sentAtMs[Number(a.seq)]).toBeLessThan(pause!.closedFromMs + 1);
      }
      // The window as the client sent (the previous test checks it at the server): under a loaded
      // machine, bursts of 16 on fresh connections can reach the server later than they left.
      expect(maxInAnyWindow(log.sentAtMs.slice(1), 200 - toleranceMs)).toBeLessThanOrEqual(20);
    } finally {
      await client.close();
      await threaded.close();
    }
  });

  it('honours x-ratelimit-reset (absolute Unix seconds) for every queued request', async () => {
    let resetSec = 0;
    server = await startRecordingServer((a) => {
      if (a.index === 0) {
        resetSec = Math.floor(Date.now() / 1000) + 1;
        return { status: 429, headers: { 'x-ratelimit-reset': String(resetSec), 'x-ratelimit-remaining': '0' } };
      }
      return { json: wireMarket('M') };
    });
    client = testClient(server.baseUrl, { concurrency: 1 });
    const wallClockArrivals: number[] = [];
    const calls = Array.from({ length: 4 }, (_, i) => client.getMarket(`M-${i}`).then(() => wallClockArrivals.push(Date.now())));
    await Promise.all(calls);
    expect(server.arrivals).toHaveLength(5);
    for (const t of wallClockArrivals) expect(t).toBeGreaterThanOrEqual(resetSec * 1000);
  });

  it('without rate-limit headers, pauses by a doubling default', async () => {
    server = await startRecordingServer((a) => (a.index < 3 ? { status: 429 } : { json: wireMarket('M') }));
    client = testClient(server.baseUrl, { defaultRateLimitPause: { initialMs: 30, capMs: 1000 } });
    await client.getMarket('M-1');
    const gaps = server.arrivals.slice(1).map((a, i) => a.atMs - server.arrivals[i]!.atMs);
    // 30, 60, 120 ms at least (minus a millisecond of timer granularity).
    expect(gaps[0]).toBeGreaterThanOrEqual(29);
    expect(gaps[1]).toBeGreaterThanOrEqual(59);
    expect(gaps[2]).toBeGreaterThanOrEqual(119);
  });

  it('does not double the default pause for the 429s of requests already in flight when it began', async () => {
    // Five requests in flight together (no answer before all five arrived), all answered 429
    // without headers: one burst, one pause.
    let allIn!: () => void;
    const arrived = new Promise<void>((resolve) => (allIn = resolve));
    server = await startRecordingServer(async (a) => {
      if (a.index >= 5) return { json: wireMarket('M') };
      if (a.index === 4) allIn();
      await arrived;
      return { status: 429 };
    });
    const pauses: number[] = [];
    const logger = {
      debug: () => {},
      info: () => {},
      warn: (fields: object) => void pauses.push((fields as { waitMs: number }).waitMs),
    };
    client = testClient(server.baseUrl, { defaultRateLimitPause: { initialMs: 30, capMs: 10_000 }, logger });
    await Promise.all(['M-1', 'M-2', 'M-3', 'M-4', 'M-5'].map((id) => client.getMarket(id)));
    expect(pauses).toEqual([30, 30, 30, 30, 30]);
  });

  it('gives up with ApiRateLimitedError after maxRateLimitRetries', async () => {
    server = await startRecordingServer(() => ({ status: 429, headers: { 'retry-after': '0.001' } }));
    client = testClient(server.baseUrl, { maxRateLimitRetries: 3 });
    await expect(client.getMarket('M-1')).rejects.toMatchObject({ name: 'ApiRateLimitedError', status: 429 });
    expect(server.arrivals).toHaveLength(4);
  });

  it('a pause longer than maxRateLimitWaitMs stops the client instead of shortening the wait', async () => {
    server = await startRecordingServer(() => ({ status: 429, headers: { 'retry-after': '3600' } }));
    client = testClient(server.baseUrl, { maxRateLimitWaitMs: 60_000 });
    const first = client.getMarket('M-1');
    await expect(first).rejects.toMatchObject({ name: 'ApiRateLimitedError', retryAfterMs: 3_600_000 });
    await expect(client.getMarket('M-2')).rejects.toMatchObject({ name: 'ApiRateLimitedError' });
    expect(server.arrivals).toHaveLength(1);
    expect(client.stats().state).toBe('failed');
  });
});
