import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { openPool, type Pool } from '../../src/db/openPool.js';
import { ROLE_SETTINGS } from '../../src/db/sessionSettings.js';
import { eventsTable, marketsTable } from '../../src/export/entityTables.js';
import { writeEvents } from '../../src/store/writeEvents.js';
import { event, market, ok } from '../helpers/domainFixtures.js';
import { useTestDatabase } from '../helpers/testDatabase.js';
import { exporter } from './exportHelpers.js';

/** One odd stored value against the export: it is written, or named precisely. */
const db = await useTestDatabase();
const root = mkdtempSync(join(tmpdir(), 'export-odd-'));
let pool: Pool;
const exportInto = exporter(() => pool.sql);

beforeAll(async () => {
  await writeEvents(db.sql, {
    runId: null,
    endpoint: '/events',
    events: [ok(event('E1', [market('M1'), market('M2')])), ok(event('E2', [market('M3')]))],
    observedAt: new Date(Date.UTC(2025, 0, 10)),
  });
  pool = openPool(db.url, ROLE_SETTINGS.export, { max: 2, applicationName: 'export odd values test' });
});
afterAll(async () => {
  await pool?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('one odd value', () => {
  it('a 24 MB market record is exported, within DuckDB’s memory', async () => {
    const big = 'x'.repeat(24 * 1024 * 1024);
    await db.sql`update prediction.markets set raw = jsonb_build_object('blob', ${big}::text) where market_id = 'M2'`;
    const result = await exportInto(join(root, 'big'), { tables: [marketsTable] });
    expect(result.tables[0]).toMatchObject({ table: 'markets', rowsWritten: 3 });
  }, 120_000);

  it('an amount no DECIMAL(38,18) holds stops the export naming the table, the column and the record', async () => {
    await db.sql`update prediction.events set volume_usd = 1.5e21 where event_id = 'E2'`;
    await expect(exportInto(join(root, 'amount'), { tables: [eventsTable] })).rejects.toThrow(
      /events\.volume_usd of the record event_id = E2: 1500000000000000000000 has more than 20 integer digits, so it does not fit DECIMAL\(38,18\)/,
    );
  });
});
