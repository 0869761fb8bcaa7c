import postgres from 'postgres';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';

import { applyRetention } from '../../src/partitions/applyRetention.js';
import { maintainPartitions } from '../../src/partitions/maintainPartitions.js';
import { ensureMonthPartitions } from '../../src/sql/core/ensureMonthPartitions.js';
import { writeEvents } from '../../src/store/writeEvents.js';
import { event, market, ok } from '../helpers/domainFixtures.js';
import { useTestDatabase } from '../helpers/testDatabase.js';
import { utc } from '../helpers/utc.js';

const db = await useTestDatabase();
/** A second session, as a reader, a rebuild or another tool would hold locks. */
const other = postgres(db.url, { max: 1, onnotice: () => {} });
afterAll(() => other.end());

/** Runs `work` while `other` holds what `hold` takes, in a transaction rolled back afterwards. */
async function whileHeld<T>(hold: (tx: postgres.TransactionSql) => Promise<unknown>, work: () => Promise<T>): Promise<T> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let held!: () => void;
  const holding = new Promise<void>((resolve) => (held = resolve));
  const transaction = other
    .begin(async (tx) => {
      await hold(tx);
      held();
      await released;
      throw new Error('rolled back');
    })
    .catch(() => {});
  await holding;
  try {
    return await work();
  } finally {
    release();
    await transaction;
  }
}

describe('partition upkeep waits only on what it must', () => {
  beforeEach(async () => {
    await db.sql`truncate prediction.events, prediction.markets, prediction.event_state_history, prediction.dropped_partitions cascade`;
    await db.sql`truncate prediction.pricing_snapshots, prediction.orderbook_snapshots, prediction.market_state_history`;
  });

  it('creates a month while another session holds an existing month, as an index rebuild or a vacuum does', async () => {
    await ensureMonthPartitions(db.sql, utc(1));
    // REINDEX CONCURRENTLY, VACUUM and ANALYZE of a partition hold SHARE UPDATE EXCLUSIVE on it.
    const created = await whileHeld(
      (tx) => tx`lock table prediction_partitions.pricing_snapshots_2025_01 in share update exclusive mode`,
      () =>
        db.sql.begin(async (tx) => {
          await tx`set local lock_timeout = '1s'`;
          return ensureMonthPartitions(tx, utc(9, 15));
        }),
    );
    expect(created).toBe(4);
  });

  it('takes a month covered by a partition of another name as present, and writes into it', async () => {
    // As another partition manager would name it.
    await db.sql`create table prediction_partitions.pricing_snapshots_p20251001 (like prediction.pricing_snapshots including defaults including constraints)`;
    await db.sql`alter table prediction.pricing_snapshots attach partition prediction_partitions.pricing_snapshots_p20251001
                 for values from ('2025-10-01 00:00:00+00') to ('2025-11-01 00:00:00+00')`;
    // The other three tables get their October; the price history keeps the one it has.
    expect(await ensureMonthPartitions(db.sql, utc(10, 15))).toBe(3);
    expect(await ensureMonthPartitions(db.sql, utc(10, 15))).toBe(0);
    const pricing = { buyYesMicroUsd: '500000', buyNoMicroUsd: '500000', sellYesMicroUsd: '400000', sellNoMicroUsd: '450000', volume: '1' };
    await writeEvents(db.sql, {
      runId: null,
      endpoint: '/events',
      events: [ok(event('E1', [market('M1', { pricing })]))],
      observedAt: utc(10, 15),
    });
    expect(await db.sql`select market_id from prediction_partitions.pricing_snapshots_p20251001`).toEqual([{ market_id: 'M1' }]);
  });

  it('postpones retention, without failing, when a reader reading two history tables would deadlock with a drop', async () => {
    await maintainPartitions(db.sql, { now: utc(1), retentionMonths: null });
    const reader = await other.reserve();
    try {
      await reader`begin`;
      await reader`select count(*) from prediction.pricing_snapshots`;
      const retention = maintainPartitions(db.sql, { now: utc(6, 15), retentionMonths: 3 });
      // While retention waits for the price table, the reader goes on to another history table.
      await new Promise((resolve) => setTimeout(resolve, 300));
      const secondRead = reader`select count(*) from prediction.market_state_history`;
      const result = await retention;
      expect(result.postponed).toMatch(/^prediction_partitions\.pricing_snapshots_2025_01: /);
      await expect(secondRead).resolves.toHaveLength(1);
    } finally {
      await reader`rollback`;
      reader.release();
    }
    expect((await maintainPartitions(db.sql, { now: utc(6, 15), retentionMonths: 3 })).postponed).toBeNull();
  });

  it('postpones retention when a count outlasts its timeout, and leaves the counting session as it was', async () => {
    await maintainPartitions(db.sql, { now: utc(1), retentionMonths: null });
    await db.sql`
      insert into prediction.pricing_snapshots (market_id, observed_at, last_observed_at, buy_yes_micro_usd)
      select 'M' || g, '2025-01-02T00:00:00Z', '2025-01-02T00:00:00Z', 500000 from generate_series(1, 300000) g`;
    const counter = postgres(db.url, { max: 2, onnotice: () => {} });
    try {
      const result = await applyRetention(db.sql, { horizon: utc(2), retentionMonths: 3, counter, countTimeoutMs: 1 });
      expect(result.postponed).toMatch(/^prediction_partitions\.\w+_2025_01: canceling statement due to statement timeout/);
      expect(await db.sql`select 1 from prediction_partitions.pricing_snapshots_2025_01 limit 1`).toHaveLength(1);
      const sessions = await Promise.all([counter.reserve(), counter.reserve()]);
      for (const session of sessions) {
        expect(await session`select current_setting('statement_timeout') as t`).toEqual([{ t: '0' }]);
        session.release();
      }
    } finally {
      await counter.end();
    }
  });

  it('stops between two drops when its signal aborts, keeping what it dropped', async () => {
    await maintainPartitions(db.sql, { now: utc(1), retentionMonths: null });
    await ensureMonthPartitions(db.sql, utc(2));
    const stop = new AbortController();
    // Aborted while the first drop runs: that drop commits, and no other starts.
    const result = await applyRetention(db.sql, {
      horizon: utc(3),
      retentionMonths: 1,
      signal: stop.signal,
      fence: async () => stop.abort(),
    });
    expect(result).toMatchObject({ postponed: null });
    expect(result.dropped).toHaveLength(1);
    expect(await db.sql`select 1 from prediction.dropped_partitions`).toHaveLength(1);
    const next = await applyRetention(db.sql, { horizon: utc(3), retentionMonths: 1 });
    expect(next.dropped.length).toBeGreaterThan(1);
  });
});
