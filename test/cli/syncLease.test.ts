import type postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { takeJobLease } from '../../src/lease/takeJobLease.js';
import type { Simulator } from '../../src/simulator/index.js';
import { acquireLease } from '../../src/sql/coordination/acquireLease.js';
import { spawnCli } from '../helpers/spawnCli.js';
import { cliEnv, startHarness } from '../helpers/syncHarness.js';
import { createTestDatabase } from '../helpers/testDatabase.js';

let sim: Simulator;
beforeAll(async () => {
  // Slow enough that a sync is still running while the test acts on it.
  ({ sim } = await startHarness({ seed: 29, markets: 300, maxPageSize: 20, faults: { latencyMs: 150 } }));
});
afterAll(() => sim.stop());

const syncEnv = (databaseUrl: string) =>
  cliEnv(databaseUrl, sim.url, { PREDICTION_CATEGORIES: 'all', PREDICTION_LEASE_TTL_SEC: '3', LOG_LEVEL: 'warn' });

const syncLease = async (sql: postgres.Sql) =>
  (
    await sql<
      { holder: string; token: string }[]
    >`select holder, token from prediction.job_leases where name = 'sync' and expires_at > clock_timestamp()`
  )[0];

const dataRows = async (sql: postgres.Sql) =>
  (
    await sql`select (select count(*) from prediction.events)::int as events, (select count(*) from prediction.markets)::int as markets,
    (select count(*) from prediction.pricing_snapshots)::int as pricing, (select count(*) from prediction.orderbook_snapshots)::int as books`
  )[0];

describe('the sync command and its lease', () => {
  it('a sync waits while another holds the lease, and runs once it is released', async () => {
    const db = await createTestDatabase();
    try {
      // The first sync, in this process: it holds the lease and keeps it renewed.
      const first = (await takeJobLease(db.sql, 'sync', { holder: 'the first sync', ttlMs: 3_000 }))!;
      const second = spawnCli(['sync'], syncEnv(db.url));
      await second.waitFor(/another sync is running; waiting for it to finish/);
      // Longer than the TTL: the renewed lease keeps it waiting.
      await new Promise((r) => setTimeout(r, 4_000));
      expect(await db.sql`select run_id from prediction.ingest_runs where job = 'sync'`).toEqual([]);
      expect(second.child.exitCode).toBeNull();
      const releasedAt = new Date();
      await first.release();
      expect(await second.exited).toBe(0);
      const [run] = await db.sql<
        { started_at: Date; status: string }[]
      >`select started_at, status from prediction.ingest_runs where job = 'sync'`;
      expect(run!.status).toBe('succeeded');
      expect(run!.started_at.getTime()).toBeGreaterThanOrEqual(releasedAt.getTime() - 1_000);
    } finally {
      await db.close();
    }
  }, 120_000);

  it('the lease of a sync that crashed holds the next one off for its TTL only', async () => {
    const db = await createTestDatabase();
    try {
      // A holder that never renews nor releases: a process killed with its lease.
      await acquireLease(db.sql, 'sync', 'a crashed sync', 60_000);
      const next = spawnCli(['sync'], syncEnv(db.url));
      await next.waitFor(/another sync is running; waiting for it to finish/);
      // Its TTL runs out in 2 s (set here rather than waited for: start-up times vary with load).
      const [lease] = await db.sql<{ expires_at: Date }[]>`
        update prediction.job_leases set expires_at = clock_timestamp() + interval '2 seconds' where name = 'sync' returning expires_at`;
      expect(await next.exited).toBe(0);
      const [run] = await db.sql<
        { started_at: Date; status: string }[]
      >`select started_at, status from prediction.ingest_runs where job = 'sync'`;
      expect(run!.status).toBe('succeeded');
      expect(run!.started_at.getTime()).toBeGreaterThanOrEqual(lease!.expires_at.getTime() - 1_000);
    } finally {
      await db.close();
    }
  }, 120_000);

  it('a sync whose lease is taken over stops at once, commits nothing more and exits 4', async () => {
    const db = await createTestDatabase();
    try {
      const sync = spawnCli(['sync'], syncEnv(db.url));
      // Wait until it has committed some pages and is still running.
      await expect
        .poll(async () => ((await dataRows(db.sql))!.events > 0 ? (await syncLease(db.sql)) !== undefined : false), {
          timeout: 30_000,
          interval: 20,
        })
        .toBe(true);
      // Another sync takes over, as one would once this one's lease had expired. FOR UPDATE first,
      // as acquireLease does: a write in flight commits before the takeover.
      await db.sql.begin(async (tx) => {
        await tx`select 1 from prediction.job_leases where name = 'sync' for update`;
        await tx`update prediction.job_leases set token = token + 1, holder = 'the other sync', expires_at = clock_timestamp() + interval '1 hour'
          where name = 'sync'`;
      });
      const atTakeover = await dataRows(db.sql);
      const code = await sync.exited;
      expect(code).toBe(4);
      expect(sync.stderr()).toMatch(/lease of job "sync"/);
      expect(await dataRows(db.sql)).toEqual(atTakeover);
      const [run] = await db.sql`select status from prediction.ingest_runs where job = 'sync'`;
      expect(run!.status).not.toBe('succeeded');
      expect(run!.status).not.toBe('running');
      // The other sync's lease was left alone.
      expect(await syncLease(db.sql)).toMatchObject({ holder: 'the other sync' });
    } finally {
      await db.close();
    }
  }, 120_000);
});
