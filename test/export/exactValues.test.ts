import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { openPool, type Pool } from '../../src/db/openPool.js';
import { ROLE_SETTINGS } from '../../src/db/sessionSettings.js';
import { useTestDatabase } from '../helpers/testDatabase.js';
import { compareWithPostgres, createLevelsView } from './exportedTables.js';
import { exporter } from './exportHelpers.js';

/**
 * Values chosen to break a careless transfer: text with every CSV delimiter and line break, empty
 * strings beside nulls, JSON with numbers no double holds, decimals at the edges of their types,
 * negative ones, microseconds. Each must come out of the Parquet files exactly as stored.
 */
const db = await useTestDatabase();
const root = mkdtempSync(join(tmpdir(), 'export-values-'));
let pool: Pool;

const NASTY = 'comma, "quote", new\nline, crlf\r\n, tab\t, backslash \\ \\N, accents é ü, emoji 😀, NUL-free';

beforeAll(async () => {
  const sql = db.sql;
  const at = '2026-03-01 10:00:00.123456+00';
  await sql`select prediction.ensure_month_partitions('2026-02-01', '2026-03-31')`;
  await sql`
    insert into prediction.events (event_id, provider, category, title, subtitle, raw, drift, tvl_usd, volume_usd, is_active, first_seen_at, last_seen_at, changed_at)
    values ('E,1"', 'polymarket', null, ${NASTY}, '',
            ${'{"a": "line\\nbreak", "q": "say \\"hi\\"", "big": 123456789012345678901234567890.123456789, "arr": [1, "x,y"], "nested": {"z": null}}'}::jsonb,
            ${['missing_series', 'weird, "tag"\nwith a line']}::text[],
            -123.456789012345678901, 12345678901234567890.123456789012345678, true, ${at}, ${at}, ${at})`;
  await sql`
    insert into prediction.markets (market_id, event_id, provider, title, description, is_tradable, status, result, open_time, raw, first_seen_at, last_seen_at, changed_at)
    values ('M "one"', 'E,1"', 'polymarket', '', ${NASTY}, null, 'open', null, '2026-02-28 23:59:59.999999+00', '{}'::jsonb, ${at}, ${at}, ${at}),
           ('M2', 'E,1"', 'kalshi', null, null, false, 'cancelled', 'void', null, '[]'::jsonb, '2026-03-02 00:00:00+00', '2026-03-02 00:00:00+00', '2026-03-02 00:00:00+00')`;
  await sql`
    insert into prediction.market_state_history (market_id, status, result, settlement_time, valid_from, valid_to)
    values ('M "one"', 'open', null, null, ${at}, '2026-03-02 00:00:00.000001+00'),
           ('M "one"', 'closed', 'yes', '2026-03-02 00:00:00.5+00', '2026-03-02 00:00:00.000001+00', null)`;
  // A crossed quote (negative spread), a 1e-18 volume, a one-sided quote, and a no-quote row of nulls.
  await sql`
    insert into prediction.pricing_snapshots (market_id, observed_at, last_observed_at, buy_yes_micro_usd, sell_yes_micro_usd, buy_no_micro_usd, sell_no_micro_usd, volume)
    values ('M "one"', ${at}, '2026-03-01 11:00:00+00', 400000, 600000, 400000, 600000, 0.000000000000000001),
           ('M "one"', '2026-03-01 23:59:59.999999+00', '2026-03-01 23:59:59.999999+00', 1000000, 0, 1000000, 0, 99999999999999999999.999999999999999999),
           ('M "one"', '2026-03-02 00:00:00+00', '2026-03-02 00:00:00+00', null, null, null, null, null),
           ('M2', '2026-03-02 00:00:00+00', '2026-03-03 00:00:00+00', 123456.5, 123456.25, 876543.125, 876543.0625, 0)`;
  // Levels go in as the store writes them (prediction.encode_levels); these do not fit its integer
  // form, so they are kept as exact numerics.
  await sql`
    insert into prediction.orderbook_snapshots (market_id, observed_at, last_observed_at, yes_levels, no_levels, content_hash, is_null,
                                                price_scale, size_scale, price_units, size_units, exact_price_cents, exact_sizes)
    select 'M "one"', ${at}::timestamptz, ${at}::timestamptz, 2, 1, 'h1', false, e.*
      from prediction.encode_levels(array[99.5, 0.0001, 0.5], array[0.123456789012345678, 12345678901234567890, 1]) e
    union all
    select 'M2', ${at}::timestamptz, ${at}::timestamptz, 0, 0, 'h2', true, e.* from prediction.encode_levels('{}', '{}') e`;
  await sql`
    insert into prediction.trades (market_id, traded_at, trade_id, event_id, action, side, price_micro_usd, amount_micro_usd,
                                   owner_pubkey, observed_at, drift, raw)
    values ('M "one"', '2026-02-28 23:59:59.999999+00', 'order-1', 'E,1"', 'buy', 'yes', 999999.999999, 12345678901234567890.123456789012345678,
            ${NASTY}, ${at}, '{}', '{"amountUsd": "12345678901234567890.123456789012345678"}'::jsonb),
           ('M2', ${at}, 'order-2', null, 'short', 'maybe', 0, 0.000000000000000001, null, ${at}, ${['trade_action_unknown', 'trade_side_unknown']}::text[], '{}'::jsonb)`;
  const [run] = await sql`
    insert into prediction.ingest_runs (job, started_at, finished_at, status) values ('sync', ${at}, ${at}, 'succeeded') returning run_id`;
  await sql`
    insert into prediction.crawl_coverage (run_id, provider, category, started_at, finished_at, pages, events_seen, complete)
    values (${run!.run_id}, 'polymarket', 'climate & science', ${at}, null, 3, 7, true),
           (${run!.run_id}, 'polymarket', 'all', '2026-03-03 00:00:00+00', '2026-03-03 00:00:01.5+00', 1, 1, false)`;
  await createLevelsView(sql);
  pool = openPool(db.url, ROLE_SETTINGS.export, { max: 2, applicationName: 'export test' });
});
afterAll(async () => {
  await pool?.close();
  rmSync(root, { recursive: true, force: true });
});

const exportInto = exporter(() => pool.sql);

describe('exported values', () => {
  const outDir = join(root, 'out');

  it('come out of the files exactly as stored, whatever they hold', async () => {
    await exportInto(outDir);
    for (const c of await compareWithPostgres(db.sql, outDir)) {
      expect(c.postgres.length, c.table).toBeGreaterThan(0);
      expect(c.exported, c.table).toEqual(c.postgres);
      expect(c.misplaced, c.table).toEqual([]);
      expect(c.badTypes, c.table).toEqual([]);
    }
  });

  it('refuse a decimal that would not fit its type exactly, naming it, and record nothing of that export', async () => {
    const recorded = await db.sql`select * from prediction.export_partitions order by table_name, day`;
    await db.sql`
      insert into prediction.pricing_snapshots (market_id, observed_at, last_observed_at, buy_yes_micro_usd)
      values ('M2', '2026-03-04 00:00:00+00', '2026-03-04 00:00:00+00', 0.0000001)`;
    await expect(exportInto(outDir)).rejects.toThrow(
      /price_history\.buy_yes_usd of the record market_id = M2: 0\.0000000000001 has more than 12 decimal places, so it does not fit DECIMAL\(18,12\)/,
    );
    expect(await db.sql`select * from prediction.export_partitions order by table_name, day`).toEqual(recorded);
    // Without it, the next export is exact again (the day it closed is rewritten back).
    await db.sql`delete from prediction.pricing_snapshots where observed_at = '2026-03-04 00:00:00+00'`;
    await exportInto(outDir);
    for (const c of await compareWithPostgres(db.sql, outDir)) expect(c.exported, c.table).toEqual(c.postgres);
  });
});
