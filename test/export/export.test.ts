import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { PredictionClient } from '../../src/api/client/index.js';
import { openPool, type Pool } from '../../src/db/openPool.js';
import { ROLE_SETTINGS } from '../../src/db/sessionSettings.js';
import { WORK_DIR } from '../../src/export/runExport.js';
import type { Simulator } from '../../src/simulator/index.js';
import { startHarness, syncOnce } from '../helpers/syncHarness.js';
import { createTestDatabase, useTestDatabase } from '../helpers/testDatabase.js';
import { ALL_TABLES, changedDays, compareWithPostgres, createLevelsView, SOURCES } from './exportedTables.js';
import { exporter, fileIdentities, filesUnder, postgresRows } from './exportHelpers.js';

/**
 * The export of a database the simulator filled over three UTC days, read back by a DuckDB of its
 * own process and compared, value for value, with Postgres; then a fourth day synced and exported
 * again into the same directory.
 */
const db = await useTestDatabase();
let sim: Simulator;
let client: PredictionClient;
let pool: Pool;
const root = mkdtempSync(join(tmpdir(), 'export-test-'));
const HOUR_SEC = 3600;

const exportInto = exporter(() => pool.sql);

beforeAll(async () => {
  let newClient: () => PredictionClient;
  ({ sim, newClient } = await startHarness({ shape: 'live', seed: 11, markets: 60 }));
  client = newClient();
  for (const stepSec of [0, 9 * HOUR_SEC, 20 * HOUR_SEC, 26 * HOUR_SEC]) {
    sim.world.step(stepSec);
    expect((await syncOnce(db.sql, client, sim, { categories: ['all'] })).status).toBe('succeeded');
  }
  await createLevelsView(db.sql);
  pool = openPool(db.url, ROLE_SETTINGS.export, { max: 2, applicationName: 'export test' });
});
afterAll(async () => {
  await pool?.close();
  await client?.close();
  await sim?.stop();
  rmSync(root, { recursive: true, force: true });
});

describe('export', () => {
  const first = join(root, 'first');
  const older = join(root, 'older');
  const reference = join(root, 'reference');

  it('writes every table as day partitions whose values equal Postgres exactly, read by another process', async () => {
    await exportInto(first);
    for (const c of await compareWithPostgres(db.sql, first)) {
      expect(c.postgres.length, `${c.table} has rows to compare`).toBeGreaterThan(0);
      expect(c.exported, c.table).toEqual(c.postgres);
      expect(c.misplaced, c.table).toEqual([]);
      expect(c.badTypes, c.table).toEqual([]);
    }
    // The simulated days: a history spread over several partitions.
    expect(
      new Set((await postgresRows(db.sql, 'analytics.price_history')).map((r) => r.valid_from!.slice(0, 10))).size,
    ).toBeGreaterThanOrEqual(3);
  });

  it('writes a manifest with the row counts, time ranges, schema and exporter versions', async () => {
    const manifest = JSON.parse(readFileSync(join(first, 'manifest.json'), 'utf8'));
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    const [migrations] = await db.sql`select count(*)::int as n from drizzle.__drizzle_migrations`;
    expect(manifest.exporterVersion).toBe(pkg.version);
    expect(manifest.schema.migrations).toBe(migrations!.n);
    expect(manifest.schema.latestMigration).toMatch(/^\d{4}_export_state$|^\d{4}_/);
    for (const table of ALL_TABLES) {
      const rows = await postgresRows(db.sql, SOURCES[table]!.relation);
      const times = rows.map((r) => r[SOURCES[table]!.at]!).sort();
      const entry = manifest.tables[table];
      expect({ table, rows: entry.rows, from: entry.from, to: entry.to }).toEqual({
        table,
        rows: rows.length,
        from: times[0],
        to: times.at(-1),
      });
      expect(entry.partitions.reduce((n: number, p: { rows: number }) => n + p.rows, 0)).toBe(rows.length);
    }
  });

  it('writes the same bytes into a fresh directory', async () => {
    const again = join(root, 'again');
    await exportInto(again);
    expect(filesUnder(again)).toEqual(filesUnder(first));
  });

  it('after more sync, rewrites exactly the days whose rows changed, and leaves every other file untouched', async () => {
    const before = new Map<string, Awaited<ReturnType<typeof postgresRows>>>();
    for (const table of ALL_TABLES) before.set(table, await postgresRows(db.sql, SOURCES[table]!.relation));
    const filesBefore = filesUnder(first);
    const idsBefore = fileIdentities(first);
    // A copy of this export, files and record, for the stops below.
    await copyExport(first, older);

    sim.world.step(30 * HOUR_SEC);
    expect((await syncOnce(db.sql, client, sim, { categories: ['all'] })).status).toBe('succeeded');
    const result = await exportInto(first);

    const idsAfter = fileIdentities(first);
    for (const table of ALL_TABLES) {
      const { relation, key, at } = SOURCES[table]!;
      const changed = changedDays(before.get(table)!, await postgresRows(db.sql, relation), key, at);
      const rewritten = [...idsAfter]
        .filter(([path, id]) => path.startsWith(`${table}/`) && idsBefore.get(path) !== id)
        .map(([path]) => /date=(\d{4}-\d{2}-\d{2})/.exec(path)![1]!)
        .sort();
      // Every changed day is rewritten; a day rewritten without a change (its rows' sources got a
      // new version, e.g. a confirmed book whose levels stayed) has the same bytes as before.
      expect(changed.length, `${table} changed`).toBeGreaterThan(0);
      expect(rewritten, table).toEqual(expect.arrayContaining(changed));
      for (const day of rewritten.filter((d) => !changed.includes(d))) {
        const path = `${table}/date=${day}/part-0.parquet`;
        expect(filesUnder(first).get(path)?.equals(filesBefore.get(path)!), `${path} rewritten unchanged`).toBe(true);
      }
      const outcome = result.tables.find((t) => t.table === table)!;
      expect(outcome.filesWritten, table).toBe(rewritten.length);
      // Tables whose columns show every change of their sources are rewritten exactly where they changed.
      if (!['orderbook_levels', 'market_resolutions'].includes(table)) expect(rewritten, table).toEqual(changed);
    }
    expect(result.tables.find((t) => t.table === 'price_history')!.unchanged).toBeGreaterThan(0);
    for (const c of await compareWithPostgres(db.sql, first)) expect(c.exported, c.table).toEqual(c.postgres);
    // And the same bytes as an export of the whole database into a fresh directory.
    await exportInto(reference);
    expect(filesUnder(first)).toEqual(filesUnder(reference));
  });

  it('re-running over an unchanged database writes nothing', async () => {
    const ids = fileIdentities(first);
    const manifest = readFileSync(join(first, 'manifest.json'));
    const result = await exportInto(first);
    expect(result.tables.filter((t) => t.filesWritten !== 0)).toEqual([]);
    expect(fileIdentities(first)).toEqual(ids);
    expect(readFileSync(join(first, 'manifest.json')).equals(manifest)).toBe(true);
  });

  it('with a range, writes the history days it overlaps and every market and event; a full export then completes it', async () => {
    const ranged = join(root, 'ranged');
    const days = [...new Set((await postgresRows(db.sql, 'analytics.price_history')).map((r) => r.valid_from!.slice(0, 10)))].sort();
    const range = { fromDay: days[1]!, toDay: days[2]! };
    await exportInto(ranged, { range });
    const partitions = [...filesUnder(ranged).keys()].filter((p) => p.endsWith('.parquet'));
    const history = ['market_state_history', 'price_history', 'orderbook_top', 'orderbook_levels', 'data_coverage'];
    for (const path of partitions) {
      const [table, day] = [path.split('/')[0]!, /date=([\d-]+)/.exec(path)![1]!];
      if (history.includes(table)) expect(day, path).toBe(days[1]);
    }
    expect(partitions.filter((p) => p.startsWith('price_history/'))).toEqual([`price_history/date=${days[1]}/part-0.parquet`]);
    const reference = filesUnder(join(root, 'reference'));
    for (const table of ['markets', 'events', 'market_resolutions']) {
      const mine = [...filesUnder(ranged)].filter(([p]) => p.startsWith(`${table}/`));
      expect(new Map(mine), table).toEqual(new Map([...reference].filter(([p]) => p.startsWith(`${table}/`))));
    }
    await exportInto(ranged);
    expect(filesUnder(ranged)).toEqual(reference);
  });

  it('stopped at any point of an incremental export, even leaving work files behind, the next one gives the same files', async () => {
    const rows = (await postgresRows(db.sql, 'analytics.price_history')).length;
    // Stops after the first row, and a quarter, half and nine tenths of the price rows' worth.
    for (const fraction of [0, 0.25, 0.5, 0.9]) {
      const stopped = join(root, `stopped-${fraction}`);
      await copyExport(older, stopped);
      const stop = new AbortController();
      let seen = 0;
      const progress = {
        start: () => {},
        stop: () => {},
        advance: (n: number) => {
          seen += n;
          if (seen > fraction * rows) stop.abort(new Error('stopped'));
        },
      };
      await expect(exportInto(stopped, { progress, signal: stop.signal })).rejects.toThrow();
      // What a killed process would leave: half-written work files.
      mkdirSync(join(stopped, WORK_DIR, 'files'), { recursive: true });
      writeFileSync(join(stopped, WORK_DIR, 'files', 'price_history-0.csv'), '2026-01-01,half a rec');
      await exportInto(stopped);
      expect(filesUnder(stopped), `stopped after ${fraction}`).toEqual(filesUnder(reference));
    }
  });
  it('is not held back by a transaction of another database: the next export writes nothing', async () => {
    const elsewhere = await createTestDatabase({ migrated: false });
    const dir = join(root, 'elsewhere');
    await exportInto(dir);
    try {
      // A transaction with an xid, open in another database of the cluster across the export.
      let release!: () => void;
      let opened!: () => void;
      const isOpen = new Promise<void>((resolve) => (opened = resolve));
      const open = elsewhere.sql.begin(async (tx) => {
        await tx`select pg_current_xact_id()`;
        opened();
        await new Promise<void>((resolve) => (release = resolve));
      });
      await isOpen;
      // A row version newer than that transaction, then the export that reads it.
      await db.sql`update prediction.markets set title = title where market_id = (select min(market_id) from prediction.markets)`;
      expect((await exportInto(dir)).tables).toContainEqual(
        expect.objectContaining({ filesWritten: expect.toSatisfy((n: number) => n > 0, 'more than 0') }),
      );
      release();
      await open;
      expect((await exportInto(dir)).tables.filter((t) => t.filesWritten !== 0)).toEqual([]);
    } finally {
      await elsewhere.close();
    }
  });
});

/** Copies an export directory and its record in the database, as if `to` had been exported then. */
async function copyExport(from: string, to: string): Promise<void> {
  rmSync(to, { recursive: true, force: true });
  cpSync(from, to, { recursive: true });
  await db.sql`delete from prediction.export_partitions where out_dir = ${to}`;
  await db.sql`delete from prediction.export_watermarks where out_dir = ${to}`;
  await db.sql`
    insert into prediction.export_partitions (out_dir, table_name, day, rows, file_bytes, min_at, max_at, written_at)
    select ${to}, table_name, day, rows, file_bytes, min_at, max_at, written_at from prediction.export_partitions where out_dir = ${from}`;
  await db.sql`
    insert into prediction.export_watermarks (out_dir, table_name, snapshot_xmin, exported_at, exporter_version)
    select ${to}, table_name, snapshot_xmin, exported_at, exporter_version from prediction.export_watermarks where out_dir = ${from}`;
}
