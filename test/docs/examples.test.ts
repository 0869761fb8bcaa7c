import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { exportEverything } from '../export/exportHelpers.js';
import { type DemoRun, runDemo } from '../helpers/demoRun.js';
import { useTestDatabase } from '../helpers/testDatabase.js';

/**
 * Every SQL example of the query and backtesting docs, run against five minutes of `npm run demo`:
 * each statement that reads must answer. A fenced `sql` block is an example; it runs in DuckDB over
 * an export of the database when it reads Parquet (`read_parquet`), else in Postgres as
 * prediction_reader. An HTML comment on the line before a block tells how else to take it:
 * `<!-- not run: why -->` skips it, `<!-- may answer nothing: why -->` runs it without asking for rows.
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
    const unknown = examples.filter((e) => e.marker !== '' && !/^(not run|may answer nothing|as-of over the export):/.test(e.marker));
    expect(unknown.map((e) => `${e.doc}:${e.line} <!--${e.marker}-->`)).toEqual([]);
  });

  for (const example of examples.filter((e) => !e.marker.startsWith('not run:'))) {
    const mayBeEmpty = example.marker.startsWith('may answer nothing:');
    it(`${example.doc}:${example.line} (${example.heading}) ${mayBeEmpty ? 'runs' : 'answers'}`, async () => {
      for (const statement of statementsOf(example.sql)) {
        const rows = await (example.engine === 'duckdb' ? inDuckDb(statement) : inPostgres(statement));
        if (!mayBeEmpty && reads(statement)) {
          expect(isEmpty(rows), `an empty answer from ${example.doc}:${example.line}:\n${statement}`).toBe(false);
        }
      }
    });
  }
});
