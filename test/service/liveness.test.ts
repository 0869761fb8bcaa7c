/**
 * /healthz of a running service: live while its jobs make progress, 503 once the database stops
 * answering for longer than the allowed number of periods, live again when it is back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Simulator } from '../../src/simulator/index.js';
import { EVERY_SECOND, startTestService } from '../helpers/serviceHarness.js';
import { startHarness } from '../helpers/syncHarness.js';
import { useTestDatabase } from '../helpers/testDatabase.js';
import { proxyDatabase, type TcpProxy } from '../ops/tcpProxy.js';
import { installCronClock } from './cronClock.js';

let sim: Simulator;
let proxy: TcpProxy;
let proxiedUrl: string;

beforeAll(async () => {
  const db = await useTestDatabase();
  ({ sim } = await startHarness({ seed: 3, markets: 40, nowMs: () => Date.now() }));
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

describe('service liveness', () => {
  it('fails /healthz once the database has been gone for more than 3 periods, and recovers', async () => {
    // A fake clock (see cronClock.ts): every job ticks each second, so 3 s without progress is a stall.
    const clock = installCronClock(new Date(sim.world.nowSec * 1000));
    // Every job ticks: a job that never fires would keep the service live whatever the database does.
    const { service, client } = await startTestService(sim, proxiedUrl, { schedules: { trades: EVERY_SECOND } });
    try {
      clock.watchNewTasks();
      const t1 = await clock.tick();
      expect((await healthz(service.opsUrl)).status).toBe(200);

      // From here no tick can reach the database: the last progress was at t1.
      await proxy.stop();
      const statusAt = async (second: Date) => {
        clock.advance(second.getTime() - Date.now());
        return healthz(service.opsUrl);
      };
      expect((await statusAt(new Date(t1.getTime() + 3_000))).status).toBe(200);
      const stalled = await statusAt(new Date(t1.getTime() + 4_000));
      expect(stalled.status).toBe(503);
      expect(stalled.body.status).toBe('stalled');
      expect(Object.entries(stalled.body.checks ?? {}).filter(([, c]) => c.ok)).toEqual([]);

      // Back: the pool reconnects as its backoff allows (on the fake clock too), and a tick makes progress.
      await proxy.start();
      let recovered = false;
      for (let second = 0; second < 60 && !recovered; second++) {
        clock.advanceToNextSecond();
        // Room for the tick to reach the database; a connection still waiting out its backoff gets the next second.
        recovered = await clock.until('/healthz 200', async () => (await healthz(service.opsUrl)).status === 200, 250).catch(() => false);
      }
      expect(recovered).toBe(true);
    } finally {
      // Connections of the pool may still wait out their reconnect backoff, on the fake clock.
      await clock.runUntilSettled(service.stop());
      await client.close();
      clock.uninstall();
    }
  });
});
