import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { openPool, type Pool } from '../../src/db/openPool.js';
import { ROLE_SETTINGS } from '../../src/db/sessionSettings.js';
import { partitionPath } from '../../src/export/buildManifest.js';
import { eventsTable } from '../../src/export/entityTables.js';
import type { ExportTable } from '../../src/export/ExportTable.js';
import { marketStateHistoryTable } from '../../src/export/historyTables.js';
import { ensureMonthPartitions } from '../../src/sql/core/ensureMonthPartitions.js';
import { useTestDatabase } from '../helpers/testDatabase.js';
import { compareWithPostgres } from './exportedTables.js';
import { exporter, fileIdentities, filesUnder, readExport } from './exportHelpers.js';

/**
 * The edges of an incremental export: the transaction horizon it records, what a ranged export
 * records of it, and manifest.json once a day's file is gone. Each test has market_state_history
 * rows of its own month, written by hand, and changes them with plain UPDATEs, which keep every day's
 * row count: a day is then rewritten only because the horizon says it changed, not because its count
 * moved (planPartitions rewrites a day whose count moved whatever the horizon).
 */
const db = await useTestDatabase();
const root = mkdtempSync(join(tmpdir(), 'export-edges-'));
let pool: Pool;
const HISTORY = marketStateHistoryTable.name;

const exportInto = exporter(() => pool.sql, [marketStateHistoryTable]);
const outcome = (result: Awaited<ReturnType<typeof exportInto>>, table = HISTORY) => result.tables.find((t) => t.table === table)!;

/** The stored horizon of each table exported into `outDir` (xid8 text). */
async function watermarks(outDir: string): Promise<Record<string, string>> {
  const rows = await db.sql<{ table: string; xmin: string }[]>`
    select table_name as table, snapshot_xmin::text as xmin from prediction.export_watermarks where out_dir = ${outDir}`;
  return Object.fromEntries(rows.map((r) => [r.table, r.xmin]));
}

/** The exported `result` of each market_state_history row, by market. */
async function exportedResults(outDir: string): Promise<Record<string, string | null>> {
  const { rows } = (await readExport(outDir, [HISTORY]))[HISTORY]!;
  return Object.fromEntries(rows.map((r) => [r.market_id!, r.result ?? null]));
}

const setResult = (market: string, result: string) =>
  db.sql`update prediction.market_state_history set result = ${result} where market_id = ${market}`;

/** One state row per market, each on the day given: [market, valid_from]. */
beforeAll(async () => {
  const rows: [string, string][] = [
    ['H1', '2025-03-01T10:00:00Z'],
    ['H2', '2025-03-02T10:00:00Z'],
    ['H3', '2025-03-02T11:00:00Z'],
    ['H4', '2025-03-03T10:00:00Z'],
    ['R1', '2025-04-01T10:00:00Z'],
    ['R2', '2025-04-02T10:00:00Z'],
    ['R3', '2025-04-03T10:00:00Z'],
    ['M1', '2025-05-01T10:00:00Z'],
    ['M2', '2025-05-02T10:00:00Z'],
    ['M3', '2025-05-03T10:00:00Z'],
  ];
  await ensureMonthPartitions(db.sql, new Date('2025-03-01T00:00:00Z'), new Date('2025-05-31T00:00:00Z'));
  for (const [market, at] of rows) {
    await db.sql`insert into prediction.market_state_history (market_id, status, valid_from) values (${market}, 'open', ${at}::timestamptz)`;
  }
  await db.sql`
    insert into prediction.events (event_id, provider, raw, first_seen_at, last_seen_at, changed_at)
    values ('E1', 'kalshi', '{}', '2025-04-01T00:00:00Z', '2025-04-01T00:00:00Z', '2025-04-01T00:00:00Z')`;
  pool = openPool(db.url, ROLE_SETTINGS.export, { max: 2, applicationName: 'export edges test' });
});
afterAll(async () => {
  await pool?.close();
  rmSync(root, { recursive: true, force: true });
});

/** `table`, whose days query runs `after` once it has counted the days: inside the export's snapshot, before its COPY. */
const afterDays = (table: ExportTable, after: () => Promise<void>): ExportTable => ({
  ...table,
  async days(sql, query) {
    const days = await table.days(sql, query);
    await after();
    return days;
  },
});

/** A transaction that has written (and so holds an xid) and stays open until commit() is called. */
async function openTransaction(write: (tx: typeof db.sql) => Promise<unknown>): Promise<{ xid: string; commit: () => Promise<void> }> {
  let release!: () => void;
  let opened!: (xid: string) => void;
  const xid = new Promise<string>((resolve) => (opened = resolve));
  const done = db.sql.begin(async (tx) => {
    await write(tx as unknown as typeof db.sql);
    const [row] = await tx<{ xid: string }[]>`select pg_current_xact_id()::text as xid`;
    opened(row!.xid);
    await new Promise<void>((resolve) => (release = resolve));
  });
  // Should the write fail, its error rather than a wait for an xid that never comes.
  const known = await Promise.race([xid, done.then(() => Promise.reject(new Error('the transaction ended before it wrote')))]);
  return {
    xid: known,
    commit: async () => {
      release();
      await done;
    },
  };
}

describe('export edges', () => {
  it('takes as horizon the oldest transaction still running: what it and later ones write is left out, and exported next time', async () => {
    const dir = join(root, 'horizon');
    await exportInto(dir);
    // Committed before the snapshot: the export rewrites H2's and H3's day (2025-03-02).
    await setResult('H2', 'before');
    // Running when the export takes its snapshot, committed before the export reads the day.
    const running = await openTransaction((tx) => tx`update prediction.market_state_history set result = 'running' where market_id = 'H3'`);
    // Committed after the running transaction took its xid, on a day of its own (a later xid on
    // H3's day would have that day rewritten anyway): the snapshot's xmax is then past that xid.
    await setResult('H4', 'after');
    // Begun and committed after the snapshot was taken, on a day this export leaves as it is.
    const later = () => setResult('H1', 'later').then(() => {});

    const during = await exportInto(dir, {
      tables: [
        afterDays(marketStateHistoryTable, async () => {
          await running.commit();
          await later();
        }),
      ],
    });
    // The horizon is the running transaction's own xid (no other session of this database holds
    // one): the snapshot could not see its rows.
    expect((await watermarks(dir))[HISTORY]).toBe(running.xid);
    expect(outcome(during)).toMatchObject({ filesWritten: 2 });
    const horizonRows = async () => {
      const exported = await exportedResults(dir);
      return { H1: exported.H1, H2: exported.H2, H3: exported.H3, H4: exported.H4 };
    };
    expect(await horizonRows()).toEqual({ H1: null, H2: 'before', H3: null, H4: 'after' });

    // A row written by the horizon's transaction itself (xmin equal to it) counts as changed, as does
    // a later one: 2025-03-02 (H3) is rewritten for the first, 2025-03-01 (H1) for the second.
    const next = await exportInto(dir);
    expect(outcome(next).filesWritten).toBe(3);
    expect(await horizonRows()).toEqual({ H1: 'later', H2: 'before', H3: 'running', H4: 'after' });
    for (const c of await compareWithPostgres(db.sql, dir, [HISTORY])) expect(c.exported).toEqual(c.postgres);

    // Nothing written since: rows older than the horizon count as unchanged.
    const again = await exportInto(dir);
    expect(outcome(again).filesWritten).toBe(0);
  });

  it('after a ranged export, keeps the horizon of a history table it did not examine whole; the next full export writes what it skipped', async () => {
    const dir = join(root, 'ranged');
    const tables = [eventsTable, marketStateHistoryTable];
    await exportInto(dir, { tables });
    const before = await watermarks(dir);
    expect(Object.keys(before).sort()).toEqual([eventsTable.name, HISTORY]);
    await setResult('R1', 'skipped');
    await setResult('R3', 'in range');
    const ids = fileIdentities(dir);

    const ranged = await exportInto(dir, { tables, range: { fromDay: '2025-04-03', toDay: '2025-04-04' } });
    expect(outcome(ranged)).toMatchObject({ filesWritten: 1 });
    const skipped = partitionPath(HISTORY, '2025-04-01');
    expect(fileIdentities(dir).get(skipped)).toBe(ids.get(skipped));
    let exported = await exportedResults(dir);
    expect({ R1: exported.R1, R3: exported.R3 }).toEqual({ R1: null, R3: 'in range' });
    const after = await watermarks(dir);
    // The history table's days outside the range were not compared with the changes since its horizon.
    expect(after[HISTORY]).toBe(before[HISTORY]);
    // events is exported whole whatever the range: its horizon moves on.
    expect(BigInt(after[eventsTable.name] ?? 0)).toBeGreaterThan(BigInt(before[eventsTable.name]!));

    // The full export compares R1's day with the changes since the horizon the ranged one kept.
    const full = await exportInto(dir, { tables });
    expect(fileIdentities(dir).get(skipped)).not.toBe(ids.get(skipped));
    exported = await exportedResults(dir);
    expect({ R1: exported.R1, R3: exported.R3 }).toEqual({ R1: 'skipped', R3: 'in range' });
    for (const c of await compareWithPostgres(db.sql, dir, [HISTORY])) expect(c.exported).toEqual(c.postgres);
    expect(BigInt((await watermarks(dir))[HISTORY] ?? 0)).toBeGreaterThan(BigInt(before[HISTORY]!));
    expect(outcome(full, eventsTable.name).filesWritten).toBe(0);
    expect((await exportInto(dir, { tables })).tables.filter((t) => t.filesWritten !== 0)).toEqual([]);
  });

  it('describes in manifest.json exactly the files present, once a day has no row left or its file was removed by hand, in or out of the range', async () => {
    const dir = join(root, 'manifest');
    await exportInto(dir);
    await expectManifestOfFiles(dir);
    const days = () => manifestDays(dir);
    expect(days()).toEqual(expect.arrayContaining(['2025-05-01', '2025-05-02', '2025-05-03']));

    // Rows deleted by hand: the day loses its file and its entry.
    await db.sql`delete from prediction.market_state_history where market_id = 'M2'`;
    expect(outcome(await exportInto(dir))).toMatchObject({ filesWritten: 0, removed: 1 });
    expect(days()).not.toContain('2025-05-02');
    expect(days()).toEqual(expect.arrayContaining(['2025-05-01', '2025-05-03']));
    await expectManifestOfFiles(dir);

    // A file removed by hand: the next export writes it again, and the manifest lists it.
    rmSync(join(dir, HISTORY, 'date=2025-05-03'), { recursive: true });
    expect(outcome(await exportInto(dir))).toMatchObject({ filesWritten: 1, removed: 0 });
    expect(days()).toContain('2025-05-03');
    await expectManifestOfFiles(dir);

    // A file removed by hand out of a ranged export's range: the manifest drops it; the next export
    // whose range holds the day writes it again.
    rmSync(join(dir, HISTORY, 'date=2025-05-03'), { recursive: true });
    expect(outcome(await exportInto(dir, { range: { fromDay: '2025-05-01', toDay: '2025-05-02' } }))).toMatchObject({
      filesWritten: 0,
      removed: 1,
    });
    expect(days()).not.toContain('2025-05-03');
    await expectManifestOfFiles(dir);
    expect(outcome(await exportInto(dir))).toMatchObject({ filesWritten: 1, removed: 0 });
    expect(days()).toContain('2025-05-03');
    await expectManifestOfFiles(dir);
  });
});

interface ManifestTable {
  rows: number;
  files: number;
  bytes: number;
  partitions: { date: string; file: string; rows: number; bytes: number }[];
}

const readManifest = (dir: string) =>
  JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { tables: Record<string, ManifestTable> };
const manifestDays = (dir: string) => readManifest(dir).tables[HISTORY]!.partitions.map((p) => p.date);

/** manifest.json lists every Parquet file under `dir` and nothing else, each with its size and row count as read back. */
async function expectManifestOfFiles(dir: string): Promise<void> {
  const { tables } = readManifest(dir);
  const onDisk = [...filesUnder(dir).keys()].filter((p) => p.endsWith('.parquet')).sort();
  const listed = Object.values(tables)
    .flatMap((t) => t.partitions.map((p) => p.file))
    .sort();
  expect(listed).toEqual(onDisk);
  const read = await readExport(dir, Object.keys(tables));
  for (const [name, table] of Object.entries(tables)) {
    const rowsIn = (file: string) => read[name]!.rows.filter((r) => r.filename!.endsWith(`/${file}`)).length;
    expect(
      table.partitions.map((p) => ({ file: p.file, rows: p.rows, bytes: p.bytes })),
      name,
    ).toEqual(table.partitions.map((p) => ({ file: p.file, rows: rowsIn(p.file), bytes: statSync(join(dir, p.file)).size })));
    expect({ rows: table.rows, files: table.files, bytes: table.bytes }, name).toEqual({
      rows: read[name]!.rows.length,
      files: table.partitions.length,
      bytes: table.partitions.reduce((n, p) => n + statSync(join(dir, p.file)).size, 0),
    });
  }
}
