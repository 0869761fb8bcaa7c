import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { openPool, type Pool } from '../../src/db/openPool.js';
import { ROLE_SETTINGS } from '../../src/db/sessionSettings.js';
import { marketsTable } from '../../src/export/entityTables.js';
import { priceHistoryTable } from '../../src/export/historyTables.js';
import { ExportPathError, runExport } from '../../src/export/runExport.js';
import { writeEvents } from '../../src/store/writeEvents.js';
import { event, market, ok } from '../helpers/domainFixtures.js';
import { runCli } from '../helpers/runCli.js';
import { useTestDatabase } from '../helpers/testDatabase.js';
import { exporter, holdMarkets, lockWaiters } from './exportHelpers.js';

/** The export writes and reads only its own output directory, whatever its name and whatever links are in it. */
const db = await useTestDatabase();
const root = mkdtempSync(join(tmpdir(), 'export-paths-'));
let pool: Pool;
const exportInto = exporter(() => pool.sql, [marketsTable, priceHistoryTable]);

beforeAll(async () => {
  const pricing = { buyYesMicroUsd: '500000', buyNoMicroUsd: '500000', sellYesMicroUsd: '400000', sellNoMicroUsd: '450000', volume: '10' };
  await writeEvents(db.sql, {
    runId: null,
    endpoint: '/events',
    events: [ok(event('E1', [market('M1', { pricing }), market('M2', { pricing })]))],
    observedAt: new Date(Date.UTC(2025, 0, 10)),
  });
  pool = openPool(db.url, ROLE_SETTINGS.export, { max: 2, applicationName: 'export paths test' });
});
afterAll(async () => {
  await pool?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('the export output directory', () => {
  it('may have [ ] ? * in its path: DuckDB reads its own work files, not a match of them', async () => {
    // What killed exports left in directories the names would match as patterns.
    for (const sibling of ['run1', 'runX', 'run-other']) {
      const files = join(root, 'glob', sibling, '.export-tmp', 'files');
      mkdirSync(files, { recursive: true });
      for (const table of ['markets', 'price_history']) writeFileSync(join(files, `${table}-0.csv`), '2025-01-10,LEFTOVER\n');
    }
    for (const name of ['run[1]', 'run?', 'run*']) {
      const dir = join(root, 'glob', name);
      const result = await exportInto(dir);
      expect(
        result.tables.find((t) => t.table === 'markets'),
        name,
      ).toMatchObject({ filesWritten: 1, rowsWritten: 2 });
      expect(
        readdirSync(join(dir, 'markets'), { recursive: true }).filter((f) => String(f).endsWith('.parquet')),
        name,
      ).toHaveLength(1);
    }
  });

  it('refuses to write through a symbolic link inside it', async () => {
    const dir = join(root, 'linked');
    const elsewhere = join(root, 'elsewhere');
    mkdirSync(dir, { recursive: true });
    mkdirSync(elsewhere, { recursive: true });
    symlinkSync(elsewhere, join(dir, 'price_history'));
    await expect(exportInto(dir)).rejects.toThrow(ExportPathError);
    expect(readdirSync(elsewhere)).toEqual([]);
    expect(existsSync(join(dir, 'markets'))).toBe(false);
  });

  it('is locked as a directory: a second export through another path to it is refused while the first runs', async () => {
    const real = join(root, 'shared');
    const alias = join(root, 'alias');
    mkdirSync(real, { recursive: true });
    symlinkSync(real, alias);
    // A reader holds markets: the first export waits there, holding the directory.
    const holder = await holdMarkets(db.sql);
    const first = exportInto(real);
    await expect.poll(() => lockWaiters(db.sql)).toBe(1);
    // Another process, as a second export is: a pool of its own.
    const other = openPool(db.url, ROLE_SETTINGS.export, { max: 2, applicationName: 'export paths test, second' });
    const second = runExport(other.sql, { outDir: alias, tables: [marketsTable], range: { fromDay: null, toDay: null } }).then(
      () => 'finished',
      (error: Error) => error.name,
    );
    const outcome = await Promise.race([second, delay(3_000, 'still running')]);
    holder.release();
    await holder.done;
    await first;
    await second;
    await other.close();
    expect(outcome).toBe('ExportBusyError');
  });

  it('exits 2 for a --since or --until Postgres cannot hold, before reading anything', async () => {
    for (const [option, value, rule] of [
      ['--since', '0000-06-01', 'Must not be before 0001-01-01T00:00:00Z.'],
      ['--until', '9999-12-31T12:00:00Z', 'Must be before 9999-12-31.'],
    ]) {
      const result = await runCli(['export', '--out', join(root, 'range'), option!, value!], { DATABASE_URL: db.url });
      expect(result.code, `${option} ${value}: ${result.stderr}`).toBe(2);
      expect(result.stderr).toContain(`option '${option} <time>' argument '${value}' is invalid. ${rule}`);
    }
  });
});
