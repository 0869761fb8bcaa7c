/**
 * Bench 1: order-book levels written per second through the pipeline (writeOrderBooks: snapshot
 * compare + insert, then COPY of the levels, one transaction per batch) against raw COPY of the
 * very same rows into an identical fresh table (same columns, primary key and check).
 */
import postgres from 'postgres';
import type { Checked, OrderBook } from '../src/domain/types.js';
import { copyRows, type CopyField } from '../src/sql/copyRows.js';
import { recordShape } from '../src/wire/recordShape.js';
import { writeOrderBooks } from '../src/store/writeOrderBooks.js';
import { LEVELS_PER_WRITE } from '../src/sync/sweepOrderBooks.js';
import { fmtInt, fmtKRowsPerSec, fmtMs, fmtRatio, median, printTable, section } from './support/report.js';
import { cleanup, createScratch, dropScratch, type ScratchDb } from './support/scratchDb.js';

const BOOKS = 20_000;
const LEVELS_PER_SIDE = 25;
const LEVELS_TOTAL = BOOKS * LEVELS_PER_SIDE * 2;
/** Books per writeOrderBooks call: as many as the sweep gathers before a write. */
const BATCH_BOOKS = LEVELS_PER_WRITE / (LEVELS_PER_SIDE * 2);
/** Each method runs this many times, interleaved, on fresh tables; the median is reported. */
const REPEATS = 3;
const COLUMNS = ['market_id', 'snapshot_id', 'side', 'price_cents', 'size'];
const RAW_TABLE = 'prediction.bench_levels';

/** Deterministic books: distinct prices per side (the primary key), sizes with cents like Polymarket's. */
function makeBooks(): OrderBook[] {
  const side = (book: number, s: number) =>
    Array.from({ length: LEVELS_PER_SIDE }, (_, k) => ({
      priceCents: String(99 - k * 3 - s),
      size: `${(book * 7 + k * 13) % 5000}.${k % 100}`,
    }));
  return Array.from({ length: BOOKS }, (_, i) => ({
    marketId: `bench-market-${String(i).padStart(6, '0')}`,
    isNull: false,
    yes: side(i, 0),
    no: side(i, 1),
    drift: [],
    shape: recordShape({ bench: true }),
  }));
}

/** The rows the pipeline writes for a book, with the snapshot id a fresh table would give it. */
function levelRows(books: readonly OrderBook[], firstSnapshotId: number): CopyField[][] {
  return books.flatMap((b, i) => [
    ...b.yes.map((l) => [b.marketId, firstSnapshotId + i, 'yes', l.priceCents, l.size]),
    ...b.no.map((l) => [b.marketId, firstSnapshotId + i, 'no', l.priceCents, l.size]),
  ]);
}

/** TRUNCATE gives new, empty files: every run starts on a fresh table. The checkpoint evens out full-page writes. */
async function freshTables(sql: postgres.Sql, which: 'raw' | 'pipeline'): Promise<void> {
  if (which === 'raw') await sql`truncate prediction.bench_levels`;
  else await sql`truncate prediction.orderbook_levels, prediction.orderbook_snapshots restart identity`;
  await sql`checkpoint`;
}

const batches = <T>(xs: readonly T[], n: number): T[][] =>
  Array.from({ length: Math.ceil(xs.length / n) }, (_, i) => xs.slice(i * n, (i + 1) * n));

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

export async function benchLevels(serverUrl: string): Promise<void> {
  section(
    `1. Order-book levels: pipeline vs raw COPY (${fmtInt(BOOKS)} books × ${LEVELS_PER_SIDE * 2} levels = ${fmtInt(LEVELS_TOTAL)} rows)`,
  );
  let db: ScratchDb | undefined;
  let pool: postgres.Sql | undefined;
  try {
    db = await createScratch(serverUrl, `bench_sync_levels_${process.pid}`);
    pool = postgres(db.url, { max: 2, onnotice: () => {} });
    await pool`create table prediction.bench_levels (like prediction.orderbook_levels including all)`;
    const books = makeBooks();
    const allRows = levelRows(books, 1);
    const bookBatches = batches(books, BATCH_BOOKS);
    const rowBatches = bookBatches.map((b, i) => levelRows(b, 1 + i * BATCH_BOOKS));
    const observedAt = new Date('2026-01-01T00:00:00Z');

    const copyBatched = (sql: postgres.Sql) => async () => {
      for (const rows of rowBatches) await sql.begin((tx) => copyRows(tx, RAW_TABLE, COLUMNS, rows));
    };
    const pipeline = (sql: postgres.Sql) => async () => {
      let written = 0;
      for (const batch of bookBatches) {
        const checked: Checked<OrderBook>[] = batch.map((value) => ({ ok: true, value }));
        written +=
          (await writeOrderBooks(sql, { runId: null, endpoint: '/orderbook/{marketId}', fetches: [{ books: checked, observedAt }] }))
            .rowsByTable.orderbook_levels ?? 0;
      }
      if (written !== LEVELS_TOTAL) throw new Error(`pipeline wrote ${written} levels, expected ${LEVELS_TOTAL}`);
    };
    const sql = pool;
    const methods: [string, 'raw' | 'pipeline', () => Promise<unknown>][] = [
      ['copyOne', 'raw', () => copyRows(sql, RAW_TABLE, COLUMNS, allRows)],
      ['copyBatched', 'raw', copyBatched(sql)],
      ['pipeline', 'pipeline', pipeline(sql)],
    ];
    const runs: Record<string, number[]> = Object.fromEntries(methods.map(([k]) => [k, []]));
    for (let rep = 0; rep < REPEATS; rep++) {
      for (const [key, table, run] of methods) {
        await freshTables(sql, table);
        runs[key]!.push(await timed(run));
      }
      console.log(
        `  run ${rep + 1}: ${Object.entries(runs)
          .map(([k, v]) => `${k} ${fmtMs(v[rep]!)} ms`)
          .join(', ')}`,
      );
      if (rep > 0) continue;
      // Same rows both ways, or the comparison means nothing (snapshot ids may be numbered in another order).
      const [diff] = await sql`
        select count(*)::int as n from (select market_id, side, price_cents, size from prediction.orderbook_levels
          except select market_id, side, price_cents, size from prediction.bench_levels) d`;
      if (diff!.n !== 0) throw new Error(`pipeline rows differ from the COPY baseline's in ${diff!.n} rows`);
    }
    const copyMs = median(runs.copyOne!);
    const row = (name: string, key: string, note: string) => {
      const ms = median(runs[key]!);
      return [name, runs[key]!.map(fmtMs).join(' / '), fmtMs(ms), fmtKRowsPerSec(LEVELS_TOTAL, ms), fmtRatio(copyMs / ms), note];
    };
    printTable(
      `levels written per second (median of ${REPEATS}; target pipeline ≥ 0.80× COPY)`,
      ['method', 'runs ms', 'median ms', 'k levels/s', 'vs COPY', 'what it is'],
      [
        row('raw COPY, one statement', 'copyOne', `copyRows, ${fmtInt(LEVELS_TOTAL)} rows in one COPY (baseline)`),
        row('raw COPY, batched', 'copyBatched', `copyRows, one COPY + commit per ${BATCH_BOOKS} books`),
        row('pipeline writeOrderBooks', 'pipeline', `${BATCH_BOOKS} books per call: write lock, snapshot compare/insert, COPY, commit`),
      ],
    );
  } finally {
    await cleanup(
      async () => pool?.end({ timeout: 5 }),
      async () => db && dropScratch(serverUrl, db),
    );
  }
}
