import { describe, expect, it } from 'vitest';

import { DEFAULT_START_SEC, startSimulator } from '../../src/simulator/index.js';
import { get } from './http.js';

describe('startSimulator', () => {
  it('serves on loopback under /prediction/v1, manual clock from 2026-01-01', async () => {
    const sim = await startSimulator({ shape: 'spec', markets: 30 });
    try {
      expect(sim.url).toBe(`http://127.0.0.1:${sim.port}/prediction/v1`);
      expect(sim.world.nowSec).toBe(DEFAULT_START_SEC);
      expect((await get(sim, '/events')).status).toBe(200);
      expect(sim.world.nowSec).toBe(DEFAULT_START_SEC);
    } finally {
      await sim.stop();
      await sim.stop(); // idempotent
    }
  });

  it('in realtime mode the world steps itself', async () => {
    const sim = await startSimulator({
      shape: 'spec',
      markets: 30,
      clock: 'realtime',
      startSec: 1_800_000_000,
      stepEveryMs: 10,
      speed: 3600,
    });
    try {
      await expect.poll(() => sim.world.nowSec > 1_800_000_000).toBe(true);
    } finally {
      await sim.stop();
    }
  });

  it('records requests with counters, and resets them', async () => {
    const sim = await startSimulator({ shape: 'spec', markets: 30 });
    try {
      await get(sim, '/events?start=0&end=2&api_key=oops');
      await get(sim, '/markets/NOPE');
      expect(sim.requests.map((r) => [r.method, r.path, r.status, r.keyState, r.outcome])).toEqual([
        ['GET', '/prediction/v1/events', 200, 'valid', 'ok'],
        ['GET', '/prediction/v1/markets/NOPE', 404, 'valid', 'client_error'],
      ]);
      expect(sim.requests[0]!.query).toBe('start=0&end=2&api_key=%5Bredacted%5D');
      expect(sim.counters()).toMatchObject({ total: 2, accepted: 2, byStatus: { '200': 1, '404': 1 } });
      sim.resetRequests();
      expect(sim.requests).toEqual([]);
      expect(sim.counters().total).toBe(0);
    } finally {
      await sim.stop();
    }
  });

  it('rejects bad options', async () => {
    await expect(startSimulator({ port: 70_000 })).rejects.toThrow(/port/);
    await expect(startSimulator({ maxPageSize: 0 })).rejects.toThrow(/maxPageSize/);
    await expect(startSimulator({ rateLimit: { requests: 0 } })).rejects.toThrow(/rateLimit.requests/);
    await expect(startSimulator({ markets: 0 })).rejects.toThrow(/markets/);
    await expect(startSimulator({ shape: 'legacy' as 'live' })).rejects.toBeInstanceOf(RangeError);
    await expect(startSimulator({ shape: 'legacy' as 'live' })).rejects.toThrow('shape must be one of live, spec, mixed, got "legacy"');
  });
});
