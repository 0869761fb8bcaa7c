/**
 * /healthz of a running service: live while its jobs make progress, 503 once the database stops
 * answering for longer than the allowed number of periods, live again when it is back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Simulator } from '../../src/simulator/index.js';
import { proxyDatabase, type TcpProxy } from '../ops/tcpProxy.js';
import { startTestService } from '../helpers/serviceHarness.js';
import { startHarness } from '../helpers/syncHarness.js';
import { useTestDatabase } from '../helpers/testDatabase.js';

let sim: Simulator;
let proxy: TcpProxy;
let proxiedUrl: string;

beforeAll(async () => {
  const db = await useTestDatabase();
  ({ sim } = await startHarness({ seed: 3, markets: 40 }));
  ({ proxy, url: proxiedUrl } = await proxyDatabase(db.url));
});
afterAll(async () => {
  await proxy.start().catch(() => {});
  await proxy.stop();
  await sim.stop();
});

async function healthz(opsUrl: string): Promise<{ status: number; body: { status: string; checks?: Record<string, { ok: boolean }> } }> {
  const res = await fetch(`${opsUrl}/healthz`);
  return { status: res.status, body: (await res.json()) as never };
}

async function until<T>(probe: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('service liveness', () => {
  it('fails /healthz while the database is gone for more than 3 periods, and recovers', async () => {
    const { service, client } = await startTestService(sim, proxiedUrl);
    try {
      // Every job ticks each second: 3 s without progress is a stall.
      expect(
        (
          await until(
            () => healthz(service.opsUrl),
            (h) => h.status === 200,
            10_000,
          )
        ).status,
      ).toBe(200);
      await proxy.stop();
      const stalled = await until(
        () => healthz(service.opsUrl),
        (h) => h.status === 503,
        45_000,
      );
      expect(stalled.status).toBe(503);
      expect(stalled.body.status).toBe('stalled');
      expect(Object.values(stalled.body.checks ?? {}).every((c) => !c.ok)).toBe(true);
      await proxy.start();
      expect(
        (
          await until(
            () => healthz(service.opsUrl),
            (h) => h.status === 200,
            45_000,
          )
        ).status,
      ).toBe(200);
    } finally {
      await service.stop();
      await client.close();
    }
  }, 150_000);
});
