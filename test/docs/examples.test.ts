import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { DEMO_WORLD } from '../../src/cli/commands/demo.js';
import { exportEverything } from '../export/exportHelpers.js';
import { DEMO_CRAWL_EVERY_SEC, type DemoRun, runDemo } from '../helpers/demoRun.js';
import { useTestDatabase } from '../helpers/testDatabase.js';

/**
 * Every SQL example of the query and backtesting docs, run against five minutes of `npm run demo`:
 * each statement that reads must answer. A fenced `sql` block is an example; it runs in DuckDB over
 * an export of the database when it reads Parquet (`read_parquet`), else in Postgres as
 * prediction_reader. An HTML comment `<!-- not run: why -->` on the line before a block skips it;
 * every other example must answer, the demo's world being made so that each has something to show.
 *
 * The same run also shows what the demo promises of its world (one demo run serves both, as it is
 * the slow part): one clock at its speed-up, and the change and the outage of its schedule.
 */
const DOCS = ['docs/queries.md', 'docs/backtesting.md'] as const;
const DEMO_MINUTES = 5;
/** The demo's world but half its markets: the same kinds of data, in half the test's time. */
const MARKETS = 200;

interface Example {
  doc: string;
  heading: string;
  line: number;
  sql: string;
  marker: string;
  engine: 'postgres' | 'duckdb';
}

function examplesOf(doc: string): Example[] {
  const lines = readFileSync(new URL(`../../${doc}`, import.meta.url), 'utf8').split('\n');
  const found: Example[] = [];
  let heading = '(top)';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (/^#{1,6} /.test(line)) heading = line.replace(/^#+ /, '');
    if (line.trim() !== '```sql') continue;
    const end = lines.findIndex((l, j) => j > i && l.trim() === '```');
    const sql = lines.slice(i + 1, end).join('\n');
    let before = i - 1;
    while (before >= 0 && lines[before]!.trim() === '') before--;
    const marker = /^<!--(.*)-->$/.exec(lines[before]!.trim())?.[1]?.trim() ?? '';
    found.push({ doc, heading, line: i + 1, sql, marker, engine: sql.includes('read_parquet(') ? 'duckdb' : 'postgres' });
    i = end;
  }
  return found;
}

/** The statements of a block: split at a `;` that ends a line (a comment may follow it). */
function statementsOf(sql: string): string[] {
  return sql
    .split(/;[ \t]*(?:--[^\n]*)?(?:\n|$)/)
    .map((s) => s.trim())
    .filter((s) => s.split('\n').some((l) => l.trim() !== '' && !l.trim().startsWith('--')));
}

const reads = (statement: string) => /^(?:--[^\n]*\n\s*)*(select|with)\b/i.test(statement);

/** No rows, or one row of nothing but nulls, zeros and false (an aggregate over nothing). */
function isEmpty(rows: readonly Record<string, unknown>[]): boolean {
  if (rows.length === 0) return true;
  if (rows.length > 1) return false;
  return Object.values(rows[0]!).every((v) => v === null || v === false || Number(v) === 0);
}

const examples = DOCS.flatMap(examplesOf);
const db = await useTestDatabase();
const outDir = mkdtempSync(join(tmpdir(), 'doc-examples-'));
let run: DemoRun;
let instance: DuckDBInstance;
let duck: DuckDBConnection;

beforeAll(async () => {
  run = await runDemo(db.sql, DEMO_MINUTES, { markets: MARKETS });
  await exportEverything(db.url, outDir, 'doc examples');
  instance = await DuckDBInstance.create(':memory:');
  duck = await instance.connect();
  // The as-of query reads the backtest's questions, which the whole backtest's first statement makes.
  const makesSignals = examples.flatMap((e) => statementsOf(e.sql)).find((s) => /^create (or replace )?table signals\b/i.test(s));
  await duck.run(makesSignals!.replaceAll("'export/", `'${outDir}/`));
}, 180_000);

afterAll(async () => {
  duck?.closeSync();
  instance?.closeSync();
  await run?.sim.stop();
  rmSync(outDir, { recursive: true, force: true });
});

async function inPostgres(statement: string): Promise<Record<string, unknown>[]> {
  return db.sql.begin(async (tx) => {
    await tx`set local role prediction_reader`;
    return [...(await tx.unsafe(statement))] as Record<string, unknown>[];
  });
}

async function inDuckDb(statement: string): Promise<Record<string, unknown>[]> {
  const reader = await duck.runAndReadAll(statement.replaceAll("'export/", `'${outDir}/`));
  return reader.getRowObjectsJson() as Record<string, unknown>[];
}

describe('the examples of the docs, on a demo that has run five minutes', () => {
  it('finds the examples, and every marker is one the test knows', () => {
    expect(examples.length).toBeGreaterThan(15);
    const unknown = examples.filter((e) => e.marker !== '' && !/^(not run|as-of over the export):/.test(e.marker));
    expect(unknown.map((e) => `${e.doc}:${e.line} <!--${e.marker}-->`)).toEqual([]);
  });

  for (const example of examples.filter((e) => !e.marker.startsWith('not run:'))) {
    it(`${example.doc}:${example.line} (${example.heading}) answers`, async () => {
      for (const statement of statementsOf(example.sql)) {
        const rows = await (example.engine === 'duckdb' ? inDuckDb(statement) : inPostgres(statement));
        if (reads(statement)) {
          expect(isEmpty(rows), `an empty answer from ${example.doc}:${example.line}:\n${statement}`).toBe(false);
        }
      }
    });
  }
});

describe('the demo world at its speed-up, through sync', () => {
  it('closes and settles markets in its first minutes', async () => {
    const [counts] = await db.sql<{ closed: number; settled: number; seen_pending: number }[]>`
      select count(*) filter (where closed_first_observed_at is not null)::int as closed,
             count(*) filter (where settled_first_observed_at is not null
                              and closed_first_observed_at < settled_first_observed_at)::int as seen_pending,
             count(*) filter (where is_settled and settled_first_observed_at > ${new Date(run.startMs)})::int as settled
        from analytics.market_resolutions`;
    // The early closes are whole events: at least one market each.
    expect(counts!.closed).toBeGreaterThanOrEqual(DEMO_WORLD.earlyCloses.events);
    expect(counts!.settled).toBeGreaterThan(0);
    expect(counts!.seen_pending).toBeGreaterThan(0);
  });

  it('serves no close, settlement or trade dated after the poll that saw it', async () => {
    const late = await db.sql`
      select market_id, close_time, closed_first_observed_at, settlement_time, settled_first_observed_at
        from analytics.market_resolutions
       where close_time > closed_first_observed_at or settlement_time > settled_first_observed_at`;
    expect(late).toEqual([]);
    const futureTrades = await db.sql`select trade_id, traded_at from prediction.trades where traded_at > ${new Date(run.endMs)}`;
    expect(futureTrades).toEqual([]);
    const [counted] = await db.sql<{ trades: number }[]>`select count(*)::int as trades from prediction.trades`;
    expect(counted!.trades).toBeGreaterThan(0);
  });

  it('gives no negative settlement lag, but where the outage hid both the close and the settlement', async () => {
    // Such a market was last seen open, before it closed: the least its lag can be is then below 0.
    const [lastBefore, firstAfter] = [
      run.failedPollsMs[0]! - DEMO_CRAWL_EVERY_SEC * 1000,
      run.failedPollsMs.at(-1)! + DEMO_CRAWL_EVERY_SEC * 1000,
    ];
    const negative = await db.sql`
      select market_id, settlement_lag_seconds, observed_settlement_lag_min_seconds, observed_settlement_lag_max_seconds,
             settled_last_pending_observed_at, settled_first_observed_at
        from analytics.market_resolutions
       where settlement_lag_seconds < 0 or observed_settlement_lag_max_seconds < 0
          or (observed_settlement_lag_min_seconds < 0
              and not (settled_last_pending_observed_at = ${new Date(lastBefore)} and settled_first_observed_at = ${new Date(firstAfter)}))`;
    expect(negative).toEqual([]);
  });
});

describe('the demo’s schedule: its service changes, then is down for a while', () => {
  const [change, outage] = DEMO_WORLD.faultSchedule;
  /** The wall clock, ms, `simSec` simulated seconds after the world's start. */
  const wallMsAt = (simSec: number) => run.startMs + (simSec / DEMO_WORLD.speed) * 1000;

  it('lists the field its markets gain as drift, first seen at the first poll after the change', async () => {
    const drift = await db.sql<
      { endpoint: string; kind: string; path: string; detail: string; first_seen_at: Date; is_current: boolean }[]
    >`
      select endpoint, kind, path, detail, first_seen_at, is_current from analytics.upstream_drift order by endpoint`;
    expect(drift.length).toBeGreaterThan(0);
    for (const row of drift) expect([row.kind, row.path, row.detail, row.is_current]).toEqual(['new_field', 'feeBps', 'number', true]);
    expect(drift.map((r) => r.endpoint)).toContain('/events#markets');
    const firstPollAfter = Math.ceil((wallMsAt(change.fromSec) - run.startMs) / 1000 / DEMO_CRAWL_EVERY_SEC) * DEMO_CRAWL_EVERY_SEC;
    const firstSeen = Math.min(...drift.map((r) => r.first_seen_at.getTime()));
    expect(firstSeen).toBeGreaterThanOrEqual(run.startMs + firstPollAfter * 1000);
    expect(firstSeen).toBeLessThan(run.startMs + (firstPollAfter + DEMO_CRAWL_EVERY_SEC) * 1000);
  });

  it('fails the polls within the outage, and no other, and lists the crawls they missed as coverage gaps', async () => {
    const pollsMs = Array.from(
      { length: (DEMO_MINUTES * 60) / DEMO_CRAWL_EVERY_SEC },
      (_, i) => run.startMs + (i + 1) * DEMO_CRAWL_EVERY_SEC * 1000,
    );
    const inOutage = pollsMs.filter((ms) => ms >= wallMsAt(outage.fromSec) && ms < wallMsAt(outage.untilSec));
    expect(inOutage.length).toBeGreaterThan(0);
    expect(run.failedPollsMs).toEqual(inOutage);
    // Up to the run's end: a gap from the last crawl to the real now would be the test's own delay.
    const gaps = await db.sql<{ provider: string; category: string; gap_from: Date; gap_to: Date | null }[]>`
      select provider, category, gap_from, gap_to
        from analytics.coverage_gaps(${`${1.5 * DEMO_CRAWL_EVERY_SEC} seconds`}::interval, '-infinity', ${new Date(run.endMs)})`;
    expect(gaps.length).toBeGreaterThan(0);
    const lastBefore = inOutage[0]! - DEMO_CRAWL_EVERY_SEC * 1000;
    const firstAfter = inOutage.at(-1)! + DEMO_CRAWL_EVERY_SEC * 1000;
    for (const gap of gaps) {
      expect([gap.gap_from.getTime(), gap.gap_to?.getTime()], `${gap.provider}/${gap.category}`).toEqual([lastBefore, firstAfter]);
    }
  });
});
