import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { PredictionClient } from '../../src/api/client/index.js';
import type { Simulator } from '../../src/simulator/index.js';
import { QUOTE_COLUMNS } from '../helpers/quoteColumns.js';
import { startHarness, syncOnce } from '../helpers/syncHarness.js';
import { useTestDatabase } from '../helpers/testDatabase.js';
import { canonicalDecimal, exportEverything } from './exportHelpers.js';

/**
 * docs/backtesting.md's as-of query over the Parquet export against analytics.prices_as_of in
 * Postgres: 1,000 seeded random (market, instant) questions, every answer equal value for value.
 */
const db = await useTestDatabase();
const outDir = mkdtempSync(join(tmpdir(), 'export-asof-'));
const DOC = readFileSync(new URL('../../docs/backtesting.md', import.meta.url), 'utf8');
let sim: Simulator;
let client: PredictionClient;
let duck: DuckDBConnection;
let instance: DuckDBInstance;

/** The SQL block that follows `marker` in the doc, with its paths pointing at `dir`. */
function docQuery(marker: string, dir: string): string {
  const after = DOC.slice(DOC.indexOf(marker));
  const block = /```sql\n([\s\S]*?)```/.exec(after)![1]!;
  return block.replaceAll("'export/", `'${dir}/`);
}

/** A seeded pseudo-random sequence in [0, 1) (mulberry32). */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/** An instant in microseconds since the epoch as ISO text with microseconds (UTC). */
function isoMicros(us: bigint): string {
  const ms = us / 1000n;
  const rest = Number(us - ms * 1000n);
  return `${new Date(Number(ms)).toISOString().slice(0, 23)}${String(rest).padStart(3, '0')}Z`;
}
const micros = (iso: string) => BigInt(Date.parse(iso)) * 1000n + BigInt(iso.length >= 27 ? Number(iso.slice(23, 26)) : 0);

const COLUMNS = [
  'market_id',
  'as_of',
  'status',
  'result',
  'settlement_time',
  'state_observed_at',
  'quote_observed_at',
  ...QUOTE_COLUMNS,
  'volume',
] as const;
const TIMES = new Set(['as_of', 'settlement_time', 'state_observed_at', 'quote_observed_at']);
const TEXTS = new Set(['market_id', 'status', 'result']);

beforeAll(async () => {
  let newClient: () => PredictionClient;
  ({ sim, newClient } = await startHarness({ shape: 'live', seed: 5, markets: 60 }));
  client = newClient();
  for (let i = 0; i < 6; i++) {
    sim.world.step(i === 0 ? 0 : 7 * 3600);
    expect((await syncOnce(db.sql, client, sim, { categories: ['all'] })).status).toBe('succeeded');
  }
  await exportEverything(db.url, outDir, 'export test');
  instance = await DuckDBInstance.create(':memory:');
  duck = await instance.connect();
  await duck.run("SET TimeZone = 'UTC'");
});
afterAll(async () => {
  duck?.closeSync();
  instance?.closeSync();
  await client?.close();
  await sim?.stop();
  rmSync(outDir, { recursive: true, force: true });
});

describe('backtesting as of an instant', () => {
  it('the ASOF JOIN over the export answers 1,000 random questions exactly as analytics.prices_as_of', async () => {
    const changes = await db.sql<{ market_id: string; at: string }[]>`
      select market_id, to_char(observed_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as at from prediction.pricing_snapshots
      union all
      select market_id, to_char(valid_from at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') from prediction.market_state_history`;
    const markets = [...new Set(changes.map((c) => c.market_id))].sort();
    const firstSeen = new Map<string, bigint>();
    for (const c of changes)
      firstSeen.set(
        c.market_id,
        [firstSeen.get(c.market_id), micros(c.at)].reduce((a, b) => (a === undefined || b! < a ? b : a))!,
      );
    const all = changes.map((c) => micros(c.at));
    const lo = all.reduce((a, b) => (b < a ? b : a)) - 86_400_000_000n;
    const hi = all.reduce((a, b) => (b > a ? b : a)) + 86_400_000_000n;

    const next = random(20260115);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)]!;
    const questions: { marketId: string; at: string; kind: string }[] = [];
    for (let i = 0; i < 1000; i++) {
      const kind = pick(['change', 'just before a change', 'before first observation', 'anywhere', 'anywhere', 'unknown market']);
      const change = pick(changes);
      const marketId =
        kind === 'change' || kind === 'just before a change' ? change.market_id : kind === 'unknown market' ? `nope-${i}` : pick(markets);
      const us =
        kind === 'change'
          ? micros(change.at)
          : kind === 'just before a change'
            ? micros(change.at) - 1n
            : kind === 'before first observation'
              ? firstSeen.get(marketId)! - BigInt(1 + Math.floor(next() * 86_400_000_000))
              : lo + BigInt(Math.floor(next() * Number(hi - lo)));
      questions.push({ marketId, at: isoMicros(us), kind });
    }

    const fromPostgres = await db.sql<Record<string, string | null>[]>`
      select ${db.sql.unsafe(COLUMNS.map((c) => (TIMES.has(c) ? `to_char(${c} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as ${c}` : `${c}::text as ${c}`)).join(', '))}
      -- As text: postgres.js would send timestamptz parameters through Date, which drops microseconds.
      from analytics.prices_as_of(${questions.map((q) => q.marketId)}::text[], ${questions.map((q) => q.at)}::text[]::timestamptz[])
      order by input_ordinal`;

    const values = questions.map((q) => `('${q.marketId}', TIMESTAMPTZ '${q.at}')`).join(', ');
    await duck.run(`CREATE OR REPLACE TABLE signals AS SELECT * FROM (VALUES ${values}) AS t(market_id, as_of)`);
    const render = COLUMNS.map((c) =>
      TIMES.has(c) ? `strftime(${c}, '%Y-%m-%dT%H:%M:%S.%fZ') AS ${c}` : `CAST(${c} AS VARCHAR) AS ${c}`,
    ).join(', ');
    const query = docQuery('<!-- as-of over the export', outDir).replace(/;\s*$/, '');
    const fromParquet = (await duck.runAndReadAll(`SELECT ${render} FROM (${query})`)).getRowObjectsJson() as Record<
      string,
      string | null
    >[];

    const canonical = (row: Record<string, string | null>) =>
      Object.fromEntries(COLUMNS.map((c) => [c, row[c] === null || TIMES.has(c) || TEXTS.has(c) ? row[c] : canonicalDecimal(row[c]!)]));
    const key = (r: Record<string, unknown>) => `${r.market_id} ${r.as_of}`;
    const sort = (rows: Record<string, unknown>[]) => rows.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
    expect(fromParquet).toHaveLength(1000);
    expect(sort(fromParquet.map(canonical))).toEqual(sort(fromPostgres.map(canonical)));

    // The questions reach every case: answered at a change, before one, before any observation, unknown.
    const answered = fromPostgres.filter((r) => r.quote_observed_at !== null);
    expect(answered.length).toBeGreaterThan(300);
    expect(fromPostgres.filter((r) => r.quote_observed_at === r.as_of).length).toBeGreaterThan(50);
    expect(fromPostgres.filter((r) => r.quote_observed_at === null && r.state_observed_at === null).length).toBeGreaterThan(100);
  });

  it("the doc's whole backtest runs over the export", async () => {
    const block = docQuery('### A whole backtest', outDir);
    const [create, select] = block.split(/;\s*\n\s*\n/);
    await duck.run(`DROP TABLE IF EXISTS signals`);
    await duck.run(create!);
    const [row] = (await duck.runAndReadAll(select!.replace(/;\s*$/, ''))).getRowObjectsJson();
    expect(Number(row!.trades)).toBeGreaterThan(0);
  });
});
