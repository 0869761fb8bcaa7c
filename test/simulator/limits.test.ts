import { afterEach, describe, expect, it } from 'vitest';

import { type Simulator, startSimulator } from '../../src/simulator/index.js';
import { gatewayErrorBodySchema } from '../../src/wire/errorBodies.js';
import { get } from './http.js';

let sim: Simulator | undefined;
afterEach(async () => {
  await sim?.stop();
  sim = undefined;
});

describe('auth', () => {
  it('401 with the gateway shape for a wrong or empty key; missing key is served keyless', async () => {
    sim = await startSimulator({ shape: 'spec', markets: 50, apiKey: 'test-key' });
    for (const key of ['wrong', '']) {
      const r = await get(sim, '/events', key);
      expect(r.status).toBe(401);
      expect(gatewayErrorBodySchema.parse(r.body)).toEqual({ code: 401, message: 'Invalid API key' });
    }
    const keyless = await get(sim, '/events', null);
    expect(keyless.status).toBe(200);
    expect(sim.requests.map((r) => r.keyState)).toEqual(['invalid', 'invalid', 'missing']);
    expect(sim.requests.filter((r) => r.accepted)).toHaveLength(1);
    // The key never reaches the log.
    expect(JSON.stringify(sim.requests)).not.toContain('test-key');
  });

  it('accepts any non-empty key when none is configured', async () => {
    sim = await startSimulator({ shape: 'spec', markets: 50 });
    expect((await get(sim, '/events', 'anything')).status).toBe(200);
    expect(sim.requests[0]!.keyState).toBe('valid');
  });
});

describe('sliding-window rate limit', () => {
  it('answers 429 with Retry-After and x-ratelimit-* once the window is full', async () => {
    sim = await startSimulator({ shape: 'spec', markets: 50, apiKey: 'test-key', rateLimit: { requests: 5, windowMs: 60_000 } });
    const ok = [];
    for (let i = 0; i < 5; i++) ok.push(await get(sim, '/events?end=1'));
    expect(ok.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(ok.map((r) => r.headers['x-ratelimit-remaining'])).toEqual(['4', '3', '2', '1', '0']);
    expect(ok[0]!.headers['retry-after']).toBeUndefined();

    const limited = await get(sim, '/events?end=1');
    expect(limited.status).toBe(429);
    expect(gatewayErrorBodySchema.parse(limited.body).code).toBe(429);
    const first = sim.requests[0]!.timeMs;
    expect(limited.headers['x-ratelimit-remaining']).toBe('0');
    expect(limited.headers['x-ratelimit-current']).toBe('5');
    expect(limited.headers['x-ratelimit-reset']).toBe(String(Math.ceil((first + 60_000) / 1000)));
    const retryAfter = Number(limited.headers['retry-after']);
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(sim.counters()).toMatchObject({ total: 6, accepted: 5, byOutcome: { ok: 5, rate_limited: 1 } });
  });

  it('does not count rejected requests, and frees slots as requests leave the window', async () => {
    // A fake wall clock makes the window exact, whatever the machine load.
    let nowMs = 1_800_000_000_000;
    sim = await startSimulator({
      shape: 'spec',
      markets: 50,
      apiKey: 'test-key',
      rateLimit: { requests: 3, windowMs: 300 },
      subSecondRetryAfter: true,
      nowMs: () => nowMs,
    });
    const burst = async (n: number) => {
      const statuses: number[] = [];
      for (let i = 0; i < n; i++) statuses.push((await get(sim!, '/events?end=1')).status);
      return statuses;
    };
    expect(await burst(10)).toEqual([200, 200, 200, 429, 429, 429, 429, 429, 429, 429]);
    nowMs += 299;
    const limited = await get(sim, '/events?end=1');
    expect(limited.status).toBe(429);
    expect(limited.headers['retry-after']).toBe('0.001');
    expect(limited.headers['x-ratelimit-reset']).toBe('1800000000.3');
    nowMs += 1;
    // The attempts made while limited did not extend the window.
    expect(await burst(4)).toEqual([200, 200, 200, 429]);
    expect(sim.log.maxAcceptedInWindow(300)).toBe(3);
    expect(sim.counters().accepted).toBe(6);
  });

  it('keeps the keyless window separate and lower', async () => {
    sim = await startSimulator({
      shape: 'spec',
      markets: 50,
      apiKey: 'test-key',
      rateLimit: { requests: 10 },
      keylessRateLimit: { requests: 2 },
    });
    const keyless = [];
    for (let i = 0; i < 3; i++) keyless.push((await get(sim, '/events?end=1', null)).status);
    expect(keyless).toEqual([200, 200, 429]);
    expect((await get(sim, '/events?end=1')).status).toBe(200);
    sim.resetRateLimits();
    expect((await get(sim, '/events?end=1', null)).status).toBe(200);
  });

  it('never accepts more than N requests in any window under concurrent load', async () => {
    sim = await startSimulator({ shape: 'spec', markets: 50, apiKey: 'test-key', rateLimit: { requests: 20, windowMs: 60_000 } });
    const statuses = await Promise.all(Array.from({ length: 100 }, () => get(sim!, '/events?end=1').then((r) => r.status)));
    expect(statuses.filter((s) => s === 200)).toHaveLength(20);
    expect(statuses.filter((s) => s === 429)).toHaveLength(80);
    expect(sim.log.maxAcceptedInWindow(60_000)).toBe(20);
  });
});

describe('429 storm fault', () => {
  it('answers a share of requests 429 with a short decimal Retry-After, not counted as accepted', async () => {
    sim = await startSimulator({
      shape: 'spec',
      markets: 50,
      apiKey: 'test-key',
      faults: { rateLimitStormRate: 1, stormRetryAfterMs: 200 },
    });
    const r = await get(sim, '/events');
    expect(r.status).toBe(429);
    expect(r.headers['retry-after']).toBe('0.2');
    expect(Number(r.headers['x-ratelimit-reset']) * 1000).toBeGreaterThanOrEqual(sim.requests[0]!.timeMs + 200);
    expect(sim.requests[0]).toMatchObject({ accepted: false, outcome: 'storm', status: 429 });
    sim.faults.set({ stormRetryAfterMs: 2000 });
    expect((await get(sim, '/events')).headers['retry-after']).toBe('2');
    sim.faults.set({ rateLimitStormRate: 0 });
    expect((await get(sim, '/events')).status).toBe(200);
  });

  it('lets a test check that a client paused during Retry-After', async () => {
    let nowMs = 1_800_000_000_000;
    sim = await startSimulator({
      shape: 'spec',
      markets: 50,
      apiKey: 'test-key',
      nowMs: () => nowMs,
      faults: { rateLimitStormRate: 1, stormRetryAfterMs: 150 },
    });
    const limited = await get(sim, '/events');
    sim.faults.reset();
    const pauseMs = Number(limited.headers['retry-after']) * 1000;
    nowMs += pauseMs; // the "client" waits exactly the pause
    await get(sim, '/events');
    const [stormed, next] = sim.requests;
    expect(sim.log.arrivedBetween(stormed!.timeMs + 1, stormed!.timeMs + pauseMs)).toEqual([]);
    expect(next!.timeMs - stormed!.timeMs).toBe(150);
    expect(next!.status).toBe(200);
  });
});
