import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { openPool, type Pool } from '../../src/db/openPool.js';
import { ROLE_SETTINGS } from '../../src/db/sessionSettings.js';
import { partitionPath } from '../../src/export/buildManifest.js';
import { EXPORT_TABLES } from '../../src/export/exportTables.js';
import { runExport } from '../../src/export/runExport.js';
import { maintainPartitions } from '../../src/partitions/maintainPartitions.js';
import { writeEvents } from '../../src/store/writeEvents.js';
import { writeOrderBooks } from '../../src/store/writeOrderBooks.js';
import { book, event, market, ok } from '../helpers/domainFixtures.js';
import { useTestDatabase } from '../helpers/testDatabase.js';
import { utc } from '../helpers/utc.js';
import { compareWithPostgres, createLevelsView } from './exportedTables.js';
import { exporter } from './exportHelpers.js';

/** The export against what the pipeline's upkeep does to the database: retention, and new layouts. */
const db = await useTestDatabase();
const root = mkdtempSync(join(tmpdir(), 'export-upkeep-'));
let pool: Pool;
const exportInto = exporter(() => pool.sql);
const outcome = (result: Awaited<ReturnType<typeof exportInto>>, table: string) => result.tables.find((t) => t.table === table)!;

/** A market observed in January, February, April and May 2025, with a crawl in January and in May. */
beforeAll(async () => {
  const observe = async (at: Date, price: string, status: string) => {
    const pricing = { buyYesMicroUsd: price, buyNoMicroUsd: '500000', sellYesMicroUsd: '400000', sellNoMicroUsd: '450000', volume: '10' };
    await writeEvents(db.sql, {
      runId: null,
      endpoint: '/events',
      events: [ok(event('E1', [market('M1', { status, pricing })]))],
      observedAt: at,
    });
    await writeOrderBooks(db.sql, {
      runId: null,
      endpoint: '/orderbook/{marketId}',
      fetches: [{ books: [ok(book('M1', [[price.slice(0, 2), '5']], [['40', '7']]))], observedAt: at }],
    });
  };
  await observe(utc(1, 10), '500000', 'open');
  await observe(utc(2, 10), '510000', 'open');
  await observe(utc(4, 10), '520000', 'closed');
  await observe(utc(5, 10), '530000', 'closed');
  await db.sql`insert into prediction.ingest_runs (job, status, started_at, finished_at)
               values ('crawl', 'succeeded', ${utc(1, 10)}, ${utc(1, 11)}), ('crawl', 'succeeded', ${utc(5, 10)}, ${utc(5, 11)})`;
  await db.sql`insert into prediction.crawl_coverage (run_id, provider, category, started_at, finished_at, pages, events_seen, complete)
               select run_id, 'polymarket', 'all', started_at, finished_at, 1, 1, true from prediction.ingest_runs`;
  await createLevelsView(db.sql);
  pool = openPool(db.url, ROLE_SETTINGS.export, { max: 2, applicationName: 'export upkeep test' });
});
afterAll(async () => {
  await pool?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('export and upkeep', () => {
  it('rewrites a table whole, whatever the range, when its files were written in another layout', async () => {
    const dir = join(root, 'layout');
    await exportInto(dir);
    // As an export by an earlier version (another column list, another schema version) left it.
    await db.sql`update prediction.export_watermarks set layout = 'an earlier layout' where out_dir = ${dir} and table_name = 'price_history'`;
    const again = await exportInto(dir, { range: { fromDay: '2025-05-01', toDay: null } });
    expect(outcome(again, 'price_history').filesWritten).toBe(4);
    expect(again.tables.filter((t) => t.table !== 'price_history' && t.filesWritten !== 0)).toEqual([]);
    // The new layout is recorded: nothing more to rewrite.
    expect((await exportInto(dir)).tables.filter((t) => t.filesWritten !== 0)).toEqual([]);
  });

  it('reads recorded days whatever the DateStyle of the database', async () => {
    const dir = join(root, 'datestyle');
    await db.sql.unsafe(`alter database ${db.name} set datestyle = 'SQL, DMY'`);
    const dmy = openPool(db.url, ROLE_SETTINGS.export, { max: 2, applicationName: 'export upkeep test, DMY' });
    try {
      const exportDmy = () => runExport(dmy.sql, { outDir: dir, tables: EXPORT_TABLES, range: { fromDay: null, toDay: null } });
      await exportDmy();
      expect((await exportDmy()).tables.filter((t) => t.filesWritten !== 0 || t.removed !== 0)).toEqual([]);
    } finally {
      await dmy.close();
      await db.sql.unsafe(`alter database ${db.name} reset datestyle`);
    }
  });

  // Last: retention drops January and February for good.
  it('keeps the files of the months retention dropped, and rewrites the values retention changed', async () => {
    const dir = join(root, 'retention');
    await exportInto(dir);
    const january = join(dir, partitionPath('price_history', '2025-01-10'));
    expect(existsSync(january)).toBe(true);
    const dropped = await maintainPartitions(db.sql, { now: utc(6, 15), retentionMonths: 3 });
    expect(dropped.dropped.map((d) => d.partitionName)).toContain('pricing_snapshots_2025_01');

    const after = await exportInto(dir);
    expect(outcome(after, 'price_history')).toMatchObject({ removed: 0, archived: 2 });
    expect(outcome(after, 'orderbook_top')).toMatchObject({ removed: 0, archived: 2 });
    expect(existsSync(january)).toBe(true);
    const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as {
      tables: Record<string, { partitions: { date: string }[] }>;
    };
    expect(manifest.tables.price_history!.partitions.map((p) => p.date)).toEqual(['2025-01-10', '2025-02-10', '2025-04-10', '2025-05-10']);
    // data_coverage says the January crawl's prices are gone; the resolution reads what is left.
    for (const c of await compareWithPostgres(db.sql, dir, ['data_coverage', 'market_resolutions'])) {
      expect(c.exported, c.table).toEqual(c.postgres);
    }
    expect((await db.sql`select history_absent from analytics.data_coverage order by started_at`).map((r) => r.history_absent)).toEqual([
      true,
      false,
    ]);
  });
});
