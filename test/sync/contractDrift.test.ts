import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { PredictionClient } from '../../src/api/client/index.js';
import type { Simulator } from '../../src/simulator/index.js';
import type { SyncResult } from '../../src/sync/runSyncCycle.js';
import { startHarness, syncOnce } from '../helpers/syncHarness.js';
import { useTestDatabase } from '../helpers/testDatabase.js';

/**
 * Drift measured against today's contract, on the demo's world (seed 42, 400 markets, the live
 * shape): records as the service sends them today are accepted without drift, however their nulls
 * fall; a change planted in the simulator shows once in analytics.upstream_drift; a change that
 * empties a column the tables need degrades the run.
 */
const db = await useTestDatabase();
let sim: Simulator;
let client: PredictionClient;

const drifted = (r: SyncResult) => Object.values(r.totals.recordsByEndpoint).reduce((n, c) => n + c.acceptedWithDrift, 0);
const received = (r: SyncResult) =>
  Object.values(r.totals.recordsByEndpoint).reduce((n, c) => n + c.accepted + c.acceptedWithDrift + c.rejected, 0);
const driftRows = () =>
  db.sql<{ endpoint: string; kind: string; path: string; detail: string; records_seen: string }[]>`
    select endpoint, kind, path, detail, records_seen from analytics.upstream_drift order by endpoint, kind, path, detail`;

beforeAll(async () => {
  const harness = await startHarness({ shape: 'live', seed: 42, markets: 400 });
  sim = harness.sim;
  client = harness.newClient();
});
afterAll(async () => {
  await client.close();
  await sim.stop();
});

describe('drift against today’s contract', () => {
  it('is 0 % on the demo world, over syncs in which markets close, resolve and their nulls change', async () => {
    const first = await syncOnce(db.sql, client, sim);
    sim.world.step(6 * 3600);
    const second = await syncOnce(db.sql, client, sim);
    for (const run of [first, second]) {
      expect(run.status).toBe('succeeded');
      expect(received(run)).toBeGreaterThan(400);
      expect(drifted(run)).toBe(0);
    }
    expect(await driftRows()).toEqual([]);
    // One shape per endpoint: a field that is sometimes null is not a shape of its own.
    const shapes = await db.sql<{ endpoint: string; n: number }[]>`
      select endpoint, count(*)::int as n from prediction.upstream_shapes group by endpoint order by endpoint`;
    expect(shapes.filter((s) => s.n !== 1)).toEqual([]);
  });

  it('shows each planted change once, with the records that carried it', async () => {
    // Each sync a minute later: an observation at the instant of the stored one rewrites nothing.
    sim.world.step(60);
    sim.faults.set({ driftRate: 1, driftKinds: ['newMarketField', 'newStatusValue'] });
    const planted = await syncOnce(db.sql, client, sim, { maxRejectedPercent: 100 });
    sim.faults.set({ driftRate: 0 });
    expect(drifted(planted)).toBe(planted.totals.recordsByEndpoint['/events#markets']!.acceptedWithDrift);
    const openListed = await db.sql<{ n: number }[]>`select count(*)::int as n from prediction.markets where status = 'suspended'`;
    const rows = await driftRows();
    expect(rows.map((r) => [r.endpoint, r.kind, r.path, r.detail])).toEqual([
      ['/events#markets', 'new_field', 'feeBps', 'number'],
      ['/events#markets', 'new_value', 'status', '"suspended"'],
    ]);
    expect(Number(rows[1]!.records_seen)).toBe(openListed[0]!.n);
    // The next sync sends today's shapes again: the changes are listed, no longer current.
    sim.world.step(60);
    const after = await syncOnce(db.sql, client, sim);
    expect(drifted(after)).toBe(0);
    const current = await db.sql`select is_current from analytics.upstream_drift`;
    expect(current.map((r) => r.is_current)).toEqual([false, false]);
  });

  it('degrades a run whose markets all lose their status to a type no reader can use, and names it once', async () => {
    sim.world.step(60);
    sim.faults.set({ driftRate: 1, driftKinds: ['statusAsNumber'] });
    const run = await syncOnce(db.sql, client, sim);
    sim.faults.set({ driftRate: 0 });
    expect(run.status).toBe('degraded');
    expect(run.totals.recordsRejected).toBe(0);
    expect(run.degradation).toMatch(/stored \d+ with a needed field unreadable and left empty \(status \d+\)/);
    // Every market this run read lost its status (markets of events that ended before it, which it
    // did not read again, keep theirs).
    const [stored] = await db.sql<{ n: number }[]>`
      select count(*)::int as n from prediction.markets where status is not null and last_seen_at >= ${new Date(sim.world.nowSec * 1000)}`;
    expect(stored!.n).toBe(0);
    const changed = (await driftRows()).filter((r) => r.kind === 'changed_type');
    expect(changed.map((r) => [r.endpoint, r.path, r.detail])).toEqual([['/events#markets', 'status', 'string -> number']]);
  });
});
