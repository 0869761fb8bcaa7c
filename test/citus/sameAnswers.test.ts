/**
 * `npm run test:citus`: one data set, written the same way into a single Postgres and into the
 * Citus cluster, gives the same answer from every analytics view and function. The data: syncs
 * from one simulator on a manual clock (each cycle runs against both databases at the same
 * simulated instant, so both hold the same rows and observation times), and the analytics tests'
 * known data set (a market closing, settling, a polling gap, a null book). Then again with a
 * retention horizon. The views and functions are listed from the catalog: a new one fails here
 * until it is compared.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Sql } from '../../src/db/connect.js';
import { EXPORT_TABLES } from '../../src/export/exportTables.js';
import { runExport } from '../../src/export/runExport.js';
import { t, writeKnownDataset } from '../analytics/knownDataset.js';
import { readExport } from '../export/exportHelpers.js';
import { startHarness, syncOnce } from '../helpers/syncHarness.js';
import { useTestDatabase } from '../helpers/testDatabase.js';

const cluster = await useTestDatabase();
const single = await useTestDatabase({ plain: true });

/** The arguments each analytics function is called with, from what the data holds. */
interface Probe {
  markets: string[];
  instants: string[];
}

/** Every call of `name` worth comparing, as SQL text; a function not listed here fails the test. */
const CALLS: Record<string, (p: Probe) => string[]> = {
  price_as_of: (p) => p.markets.flatMap((m) => p.instants.map((at) => `select * from analytics.price_as_of(${lit(m)}, ${lit(at)})`)),
  prices_as_of: (p) => [
    ...p.instants.map((at) => `select * from analytics.prices_as_of(${lit(at)}::timestamptz) order by market_id`),
    `select * from analytics.prices_as_of(array[${[...p.markets, 'no-such-market'].map(lit).join(',')}]::text[],
       array[${[...p.markets, 'x'].map((_, i) => lit(p.instants[i % p.instants.length]!)).join(',')}]::timestamptz[])`,
  ],
  candles: (p) =>
    p.markets.flatMap((m) =>
      ['10 minutes', '1 hour'].map(
        (step) =>
          `select * from analytics.candles(${lit(m)}, ${lit(step)}, ${lit(p.instants[0]!)}, ${lit(p.instants.at(-1)!)}::timestamptz + interval '1 hour')`,
      ),
    ),
  cost_to_buy_yes: (p) =>
    p.markets.flatMap((m) =>
      ['1', '50', '1000000'].flatMap((n) => p.instants.map((at) => `select * from analytics.cost_to_buy_yes(${lit(m)}, ${n}, ${lit(at)})`)),
    ),
  trade_candles: (p) =>
    p.markets.map(
      (m) =>
        `select * from analytics.trade_candles(${lit(m)}, '10 minutes', ${lit(p.instants[0]!)}, ${lit(p.instants.at(-1)!)}::timestamptz + interval '1 hour')`,
    ),
  coverage_gaps: (p) => [`select * from analytics.coverage_gaps('10 minutes', ${lit(p.instants[0]!)}, ${lit(p.instants.at(-1)!)})`],
};

const lit = (text: string) => `'${text.replaceAll("'", "''")}'`;

/** The rows of a query as JSON lines, sorted: the order of an unordered view is not an answer. */
async function answer(sql: Sql, query: string): Promise<string[]> {
  const rows = await sql.unsafe(query);
  return rows.map((r) => JSON.stringify(r)).sort();
}

async function compareAll(probe: Probe) {
  const views = await single.sql<{ name: string }[]>`
    select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = 'analytics' and c.relkind in ('v', 'm') order by 1`;
  const functions = await single.sql<{ name: string }[]>`
    select distinct p.proname as name from pg_proc p join pg_namespace n on n.oid = p.pronamespace
    where n.nspname = 'analytics' order by 1`;
  expect(views.length).toBeGreaterThanOrEqual(9);
  const queries = [
    ...views.map((v) => `select * from analytics.${v.name}`),
    ...functions.flatMap((f) => {
      const calls = CALLS[f.name];
      if (!calls) throw new Error(`analytics.${f.name} is not compared: add its calls to CALLS`);
      return calls(probe);
    }),
  ];
  let rows = 0;
  for (const query of queries) {
    const expected = await answer(single.sql, query);
    rows += expected.length;
    expect({ query, rows: await answer(cluster.sql, query) }).toEqual({ query, rows: expected });
  }
  return { queries: queries.length, rows };
}

async function probe(sql: Sql): Promise<Probe> {
  const markets = await sql<{ id: string }[]>`
    (select market_id as id from prediction.markets where market_id like 'M%' order by 1)
    union all (select market_id from prediction.markets where market_id not like 'M%' order by 1 limit 12)`;
  const instants = await sql<{ at: Date }[]>`
    select distinct observed_at as at from prediction.pricing_snapshots
    union select distinct observed_at - interval '1 second' from prediction.pricing_snapshots order by 1`;
  return { markets: markets.map((m) => m.id), instants: instants.map((i) => i.at.toISOString()) };
}

it('answers alike while both are empty', async () => {
  await compareAll({ markets: ['M1'], instants: [t(0).toISOString()] });
});

describe('the same data on one Postgres and on Citus', () => {
  const h = { stop: async () => {} };
  const dirs: string[] = [];
  afterAll(async () => {
    await h.stop();
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  beforeAll(async () => {
    const { sim, newClient } = await startHarness({ markets: 120, seed: 11, shape: 'live' });
    const client = newClient();
    h.stop = async () => {
      await client.close();
      await sim.stop();
    };
    // The same cycles into both, each at the same simulated instant; the world moves in between.
    for (let cycle = 0; cycle < 3; cycle++) {
      for (const db of [single, cluster]) {
        const result = await syncOnce(db.sql, client, sim);
        expect(result.status).toBe('succeeded');
      }
      sim.world.step(1_800);
    }
    for (const db of [single, cluster]) await writeKnownDataset(db.sql);
  }, 240_000);

  it('spreads the markets and their history over both workers', async () => {
    const perWorker = await cluster.sql<{ nodeport: number; rows: string }[]>`
      select nodeport, sum(result::bigint)::text as rows from run_command_on_shards('prediction.markets', 'select count(*) from %s')
      join citus_shards using (shardid) group by 1`;
    expect(perWorker.filter((w) => Number(w.rows) > 0)).toHaveLength(2);
    const [counted] = await cluster.sql<{ n: number }[]>`select count(*)::int as n from prediction.markets`;
    expect(perWorker.reduce((n, w) => n + Number(w.rows), 0)).toBe(counted!.n);
  });

  it('holds the same rows', async () => {
    for (const table of ['markets', 'events', 'market_state_history', 'pricing_snapshots', 'orderbook_snapshots']) {
      const query = `select * from prediction.${table}`;
      const expected = await answer(single.sql, query);
      expect(expected.length).toBeGreaterThan(0);
      expect({ table, rows: await answer(cluster.sql, query) }).toEqual({ table, rows: expected });
    }
  });

  it('answers every analytics view and function alike', async () => {
    const compared = await compareAll(await probe(single.sql));
    expect(compared.rows).toBeGreaterThan(1_000);
  }, 300_000);

  it('exports the same files, twice', async () => {
    // The rows of every exported table, their file names taken from the output directory.
    const read = async (outDir: string) =>
      JSON.parse(
        JSON.stringify(
          await readExport(
            outDir,
            EXPORT_TABLES.map((table) => table.name),
          ),
        ).replaceAll(outDir, '<out>'),
      ) as unknown;
    const exported = async (db: typeof single) => {
      const outDir = await mkdtemp(join(tmpdir(), 'pi-citus-export-'));
      dirs.push(outDir);
      await runExport(db.sql, { outDir, tables: EXPORT_TABLES, range: { fromDay: null, toDay: null } });
      return read(outDir);
    };
    const expected = await exported(single);
    const rows = Object.values(expected as Record<string, { rows: unknown[] }>).reduce((n, table) => n + table.rows.length, 0);
    expect(rows).toBeGreaterThan(500);
    expect(await exported(cluster)).toEqual(expected);
    // Again into the same directory: on Citus every day is written again, with the same rows.
    await runExport(cluster.sql, { outDir: dirs.at(-1)!, tables: EXPORT_TABLES, range: { fromDay: null, toDay: null } });
    expect(await read(dirs.at(-1)!)).toEqual(expected);
  }, 240_000);

  it('answers alike behind a retention horizon', async () => {
    // What retention records when it drops a month: the as-of answers then say where history starts.
    for (const db of [single, cluster]) {
      await db.sql`insert into prediction.dropped_partitions (table_name, partition_name, range_start, range_end, row_count, retention_months)
        values ('pricing_snapshots', 'pricing_snapshots_2025_12', '2025-12-01', ${t(30)}, 0, 1)`;
      // dropped_at defaults to now(), which would differ between the two inserts.
      await db.sql`update prediction.dropped_partitions set dropped_at = ${t(31)}`;
    }
    const compared = await compareAll(await probe(single.sql));
    const absent = await cluster.sql`select 1 from analytics.prices_as_of(${t(20)}::timestamptz) where history_absent`;
    expect(absent.length).toBeGreaterThan(0);
    expect(compared.queries).toBeGreaterThan(100);
  }, 300_000);
});
