import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { openPool, type Pool } from '../../src/db/openPool.js';
import { ROLE_SETTINGS } from '../../src/db/sessionSettings.js';
import { partitionPath } from '../../src/export/buildManifest.js';
import { marketsTable } from '../../src/export/entityTables.js';
import { priceHistoryTable } from '../../src/export/historyTables.js';
import { maintainPartitions } from '../../src/partitions/maintainPartitions.js';
import { writeEvents } from '../../src/store/writeEvents.js';
import { event, market, ok } from '../helpers/domainFixtures.js';
import { useTestDatabase } from '../helpers/testDatabase.js';
import { utc } from '../helpers/utc.js';
import { exporter, holdMarkets, lockWaiters } from './exportHelpers.js';

/** An export whose snapshot is taken, and that retention meets before it reads the price history. */
const db = await useTestDatabase();
const root = mkdtempSync(join(tmpdir(), 'export-overlap-'));
let pool: Pool;
const exportInto = exporter(() => pool.sql, [marketsTable, priceHistoryTable]);

beforeAll(async () => {
  for (const [month, price] of [
    [1, '500000'],
    [2, '510000'],
    [4, '520000'],
    [5, '530000'],
  ] as const) {
    const pricing = { buyYesMicroUsd: price, buyNoMicroUsd: '500000', sellYesMicroUsd: '400000', sellNoMicroUsd: '450000', volume: '10' };
    await writeEvents(db.sql, {
      runId: null,
      endpoint: '/events',
      events: [ok(event('E1', [market('M1', { pricing })]))],
      observedAt: utc(month, 10),
    });
  }
  pool = openPool(db.url, ROLE_SETTINGS.export, { max: 2, applicationName: 'export overlap test' });
});
afterAll(async () => {
  await pool?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('an export overlapping retention', () => {
  it('keeps every archived file: retention waits for the export, and drops after it', async () => {
    const dir = join(root, 'out');
    await exportInto(dir);
    const files = () => readdirSync(join(dir, 'price_history'), { recursive: true }).filter((f) => String(f).endsWith('.parquet'));
    expect(files()).toHaveLength(4);

    // A reader holds markets: the next export takes its snapshot, then waits there, before it reads prices.
    const holder = await holdMarkets(db.sql);
    const exporting = exportInto(dir);
    await expect.poll(() => lockWaiters(db.sql)).toBe(1);
    const retention = await maintainPartitions(db.sql, { now: utc(6, 15), retentionMonths: 3 });
    holder.release();
    await holder.done;
    const result = await exporting;
    expect(result.tables.find((t) => t.table === 'price_history')).toMatchObject({ removed: 0 });
    expect(files()).toHaveLength(4);
    // The drop waited for the export and was put off; the next one goes through, and the files stay.
    expect(retention.dropped.filter((d) => d.tableName === 'pricing_snapshots')).toEqual([]);
    expect(retention.postponed).toMatch(/lock timeout/);
    const later = await maintainPartitions(db.sql, { now: utc(6, 15), retentionMonths: 3 });
    expect(later.dropped.map((d) => d.partitionName)).toContain('pricing_snapshots_2025_01');
    const after = await exportInto(dir);
    expect(after.tables.find((t) => t.table === 'price_history')).toMatchObject({ removed: 0, archived: 2 });
    expect(existsSync(join(dir, partitionPath('price_history', '2025-01-10')))).toBe(true);
    expect(files()).toHaveLength(4);
  });
});
