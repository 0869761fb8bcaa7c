/**
 * Bench 1: order-book levels written per second through the pipeline against bulk loads.
 *
 * Since 0013 a book's levels live in its orderbook_snapshots row as fixed-point arrays. The
 * target's baseline is a bulk load of the same books without change detection, in the pipeline's
 * transactions: each book hashed and encoded by the store's own functions, one COPY and commit per
 * LEVELS_PER_WRITE levels (the size of the sweep's transactions, which bounds what a crash loses),
 * into a fresh table shaped like one partition of orderbook_snapshots (same columns, primary key,
 * check and fillfactor). Beside it: the same bulk load in one COPY, a raw COPY of the same rows
 * encoded up front by prediction.encode_levels (a preparatory query, not timed; the pipeline's rows
 * must equal them, or the comparison means nothing), and the old layout's minimum, a raw COPY of the
 * same levels as rows into a table shaped like the orderbook_levels table of before 0013. The
 * pipeline is OrderBookWriter as the sweep uses it: per transaction the write lock, the month
 * partitions, one statement that compares the books with their markets' latest snapshots and
 * counts each fetch's outcome (prediction.book_fetches), and a COPY of the new rows, encoded by the
 * client; each batch is prepared (tallied and hashed) while the one before is written. Beside it,
 * the same transactions one writeOrderBooks call at a time.
 */
import postgres from 'postgres';

import type { Checked, OrderBook } from '../src/domain/types.js';
import { type CopyField, copyLines, copyRows } from '../src/sql/core/copyRows.js';
import { contentHash, SNAPSHOT_COLUMNS, snapshotLine } from '../src/sql/writes/recordOrderBooks.js';
import { OrderBookWriter } from '../src/store/OrderBookWriter.js';
import { writeOrderBooks } from '../src/store/writeOrderBooks.js';
import { LEVELS_PER_WRITE } from '../src/sync/sweepOrderBooks.js';
import { recordShape } from '../src/wire/recordShape.js';
import { fmtInt, fmtKRowsPerSec, fmtMs, fmtRatio, median, printTable, section } from './support/report.js';
import { cleanup, createScratch, dropScratch, type ScratchDb } from './support/scratchDb.js';

const BOOKS = 20_000;
const LEVELS_PER_SIDE = 25;
const LEVELS_PER_BOOK = LEVELS_PER_SIDE * 2;
const LEVELS_TOTAL = BOOKS * LEVELS_PER_BOOK;
/** Books per writeOrderBooks call: as many as the sweep gathers before a write. */
const BATCH_BOOKS = LEVELS_PER_WRITE / LEVELS_PER_BOOK;
/**
 * Each method runs this many times, interleaved, on fresh tables, after one untimed round (the
 * first call of each pays for cold caches and plans); the median is reported.
 */
const REPEATS = 5;
const RAW_TABLE = 'prediction.bench_books';
/** orderbook_levels as it was before 0013: a row per level. */
const OLD_LEVELS_TABLE = 'prediction.bench_level_rows';
const OLD_LEVEL_COLUMNS = ['market_id', 'snapshot_id', 'side', 'price_cents', 'size'];
/** Every column of a snapshot row, the levels' arrays included. */
const COLUMNS = [
  'snapshot_id',
  'market_id',
  'observed_at',
  'last_observed_at',
  'yes_levels',
  'no_levels',
  'content_hash',
  'is_null',
  'price_scale',
  'size_scale',
  'price_units',
  'size_units',
  'exact_price_cents',
  'exact_sizes',
];
const MARKET_PREFIX = 'bench-market-';
const OBSERVED_AT = new Date('2026-01-01T00:00:00Z');
const AT = OBSERVED_AT.toISOString();

/** A snapshot row in COLUMNS order, from a book and its levels' stored form (array columns as text). */
function snapshotRow(snapshotId: number, b: OrderBook, levels: readonly CopyField[]): CopyField[] {
  return [snapshotId, b.marketId, AT, AT, b.yes.length, b.no.length, contentHash(b), String(b.isNull), ...levels];
}

/** Deterministic books: distinct prices per side, sizes with decimals like Polymarket's. */
function makeBooks(): OrderBook[] {
  const side = (book: number, s: number) =>
    Array.from({ length: LEVELS_PER_SIDE }, (_, k) => ({
      priceCents: String(99 - k * 3 - s),
      size: `${(book * 7 + k * 13) % 5000}.${k % 100}`,
    }));
  return Array.from({ length: BOOKS }, (_, i) => ({
    marketId: `${MARKET_PREFIX}${String(i).padStart(6, '0')}`,
    isNull: false,
    yes: side(i, 0),
    no: side(i, 1),
    drift: [],
    shape: recordShape({ bench: true }, 'orderBook'),
  }));
}

interface Encoded {
  price_scale: number | null;
  size_scale: number | null;
  price_units: string | null;
  size_units: string | null;
  exact_price_cents: string | null;
  exact_sizes: string | null;
}

/**
 * The snapshot rows the store keeps for `books`, numbered from `firstSnapshotId`: their arrays as
 * prediction.encode_levels gives them (as array text, which COPY reads back unchanged).
 */
async function snapshotRows(sql: postgres.Sql, books: readonly OrderBook[], firstSnapshotId: number): Promise<CopyField[][]> {
  const encoded = await sql<Encoded[]>`
    select e.price_scale, e.size_scale, e.price_units::text, e.size_units::text, e.exact_price_cents::text, e.exact_sizes::text
    from unnest(${books.map((b) => [...b.yes, ...b.no].map((l) => l.priceCents).join(','))}::text[],
                ${books.map((b) => [...b.yes, ...b.no].map((l) => l.size).join(','))}::text[]) with ordinality as b(prices, sizes, i)
    cross join lateral prediction.encode_levels(string_to_array(b.prices, ',')::numeric[], string_to_array(b.sizes, ',')::numeric[]) e
    order by b.i`;
  return books.map((b, i) => {
    const e = encoded[i]!;
    return snapshotRow(firstSnapshotId + i, b, [
      e.price_scale,
      e.size_scale,
      e.price_units,
      e.size_units,
      e.exact_price_cents,
      e.exact_sizes,
    ]);
  });
}

/**
 * TRUNCATE gives new, empty files: every run starts on a fresh table. The checkpoint evens out
 * full-page writes. The pipeline's runs start as the sweep's steady state for the fetch outcomes
 * (prediction.book_fetches): every market fetched once before, a minute earlier, so that each
 * book of the run updates its market's row, as most fetches of a sweep do.
 */
async function freshTables(sql: postgres.Sql, which: 'raw' | 'levelRows' | 'pipeline'): Promise<void> {
  if (which === 'raw') await sql`truncate prediction.bench_books`;
  else if (which === 'levelRows') await sql`truncate prediction.bench_level_rows`;
  else {
    await sql`truncate prediction.orderbook_snapshots, prediction.book_fetches restart identity`;
    await sql`
      insert into prediction.book_fetches (market_id, last_fetched_at, fetches)
      select ${MARKET_PREFIX} || lpad(i::text, 6, '0'), ${new Date(OBSERVED_AT.getTime() - 60_000)}, 1
      from generate_series(0, ${BOOKS - 1}) i`;
  }
  await sql`checkpoint`;
}

const batches = <T>(xs: readonly T[], n: number): T[][] =>
  Array.from({ length: Math.ceil(xs.length / n) }, (_, i) => xs.slice(i * n, (i + 1) * n));

/** Wall time and this process's CPU time (the client's share; the server's runs beside it). */
async function timed(fn: () => Promise<unknown>): Promise<{ wallMs: number; clientMs: number }> {
  const cpu = process.cpuUsage();
  const start = performance.now();
  await fn();
  const used = process.cpuUsage(cpu);
  return { wallMs: performance.now() - start, clientMs: (used.user + used.system) / 1000 };
}

export async function benchLevels(serverUrl: string): Promise<void> {
  section(
    `1. Order-book levels: pipeline vs raw COPY of the same snapshot rows (${fmtInt(BOOKS)} books × ${LEVELS_PER_BOOK} levels = ${fmtInt(LEVELS_TOTAL)} levels)`,
  );
  let db: ScratchDb | undefined;
  let pool: postgres.Sql | undefined;
  try {
    db = await createScratch(serverUrl, `bench_sync_levels_${process.pid}`);
    pool = postgres(db.url, { max: 2, onnotice: () => {} });
    // What prediction.create_month_partition makes of a month, as a table of its own.
    await pool`create table prediction.bench_books (like prediction.orderbook_snapshots including all) with (fillfactor = 90)`;
    await pool`
      create table prediction.bench_level_rows (
        market_id text not null, snapshot_id bigint not null, side text not null check (side in ('yes', 'no')),
        price_cents numeric not null, size numeric not null, primary key (market_id, snapshot_id, side, price_cents))`;
    const sql = pool;
    const books = makeBooks();
    const bookBatches = batches(books, BATCH_BOOKS);
    const rowBatches: CopyField[][][] = [];
    for (const [i, batch] of bookBatches.entries()) rowBatches.push(await snapshotRows(sql, batch, 1 + i * BATCH_BOOKS));
    const allRows = rowBatches.flat();
    // Made as they are sent: held in memory, a million small arrays made every collection of the
    // other methods' garbage slower (the pipeline, which keeps encoded lines across turns, most).
    const levelRows = function* (): Generator<CopyField[]> {
      for (const [i, b] of books.entries()) {
        for (const side of ['yes', 'no'] as const) for (const l of b[side]) yield [b.marketId, 1 + i, side, l.priceCents, l.size];
      }
    };

    // A bulk load of the same books, without change detection: each hashed and encoded by the
    // store's own functions inside the timing, as COPY lines streamed like the store's.
    const bulkLines = function* (from: number, to: number) {
      for (let i = from; i < to; i++) yield snapshotLine(books[i]!, contentHash(books[i]!), AT);
    };
    const bulkLoad = () => copyLines(sql, RAW_TABLE, SNAPSHOT_COLUMNS, bulkLines(0, books.length));
    // The same, in the pipeline's transactions: one COPY and commit per call's worth of books.
    const bulkLoadBatched = async () => {
      for (let from = 0; from < books.length; from += BATCH_BOOKS) {
        await sql.begin((tx) => copyLines(tx, RAW_TABLE, SNAPSHOT_COLUMNS, bulkLines(from, Math.min(books.length, from + BATCH_BOOKS))));
      }
    };
    const copyBatched = async () => {
      for (const rows of rowBatches) await sql.begin((tx) => copyRows(tx, RAW_TABLE, COLUMNS, rows));
    };
    const booksWrite = (batch: readonly OrderBook[]) => ({
      runId: null,
      endpoint: '/orderbook/{marketId}',
      fetches: [{ books: batch.map((value): Checked<OrderBook> => ({ ok: true, value })), observedAt: OBSERVED_AT }],
    });
    const checkWritten = (written: number) => {
      if (written !== LEVELS_TOTAL) throw new Error(`pipeline wrote ${written} levels, expected ${LEVELS_TOTAL}`);
    };
    // As the sweep writes: each batch prepared while the one before commits.
    const pipeline = async () => {
      let written = 0;
      const writer = new OrderBookWriter(sql, (counts) => (written += counts.rowsByTable.orderbook_levels ?? 0));
      for (const batch of bookBatches) await writer.write(booksWrite(batch));
      await writer.drain();
      checkWritten(written);
    };
    // One writeOrderBooks call after another, each waiting for the one before to commit.
    const pipelineCalls = async () => {
      let written = 0;
      for (const batch of bookBatches) written += (await writeOrderBooks(sql, booksWrite(batch))).rowsByTable.orderbook_levels ?? 0;
      checkWritten(written);
    };
    const methods: [string, 'raw' | 'levelRows' | 'pipeline', () => Promise<unknown>][] = [
      ['bulkLoad', 'raw', bulkLoad],
      ['bulkLoadBatched', 'raw', bulkLoadBatched],
      ['copyOne', 'raw', () => copyRows(sql, RAW_TABLE, COLUMNS, allRows)],
      ['copyBatched', 'raw', copyBatched],
      ['copyLevelRows', 'levelRows', () => copyRows(sql, OLD_LEVELS_TABLE, OLD_LEVEL_COLUMNS, levelRows())],
      ['pipeline', 'pipeline', pipeline],
      ['pipelineCalls', 'pipeline', pipelineCalls],
    ];
    // Same rows as the raw COPY's, encoded by the database (snapshot ids aside: the pipeline's come
    // from the sequence). The raw methods run first in each round, so bench_books holds them.
    const sameRowsAsRawCopy = async (key: string) => {
      const [diff] = await sql<{ n: number }[]>`
        with p as (select ${sql(COLUMNS.slice(1))} from prediction.orderbook_snapshots),
             r as (select ${sql(COLUMNS.slice(1))} from prediction.bench_books)
        select ((select count(*) from (table p except all table r) a) + (select count(*) from (table r except all table p) b))::int as n`;
      if (diff!.n !== 0) throw new Error(`${key}: its rows differ from the raw COPY's in ${diff!.n} rows`);
    };
    // Each market's second fetch, a minute after the first (freshTables), found a new book.
    const fetchesCounted = async (key: string) => {
      const [n] = await sql<{ n: number }[]>`
        select count(*)::int as n from prediction.book_fetches
        where fetches = 2 and changed_fetches = 1 and unchanged_fetches = 0 and changed_interval_sec = 60 and last_fetched_at = ${OBSERVED_AT}`;
      if (n!.n !== BOOKS) throw new Error(`${key}: ${n!.n} markets have their fetch counted, expected ${BOOKS}`);
    };
    const runs: Record<string, number[]> = Object.fromEntries(methods.map(([k]) => [k, []]));
    const clientRuns: Record<string, number[]> = Object.fromEntries(methods.map(([k]) => [k, []]));
    for (let rep = -1; rep < REPEATS; rep++) {
      const round: string[] = [];
      for (const [key, table, run] of methods) {
        await freshTables(sql, table);
        const { wallMs, clientMs } = await timed(run);
        round.push(`${key} ${fmtMs(wallMs)} ms`);
        if (rep < 0 && table === 'pipeline') {
          await sameRowsAsRawCopy(key);
          await fetchesCounted(key);
        }
        if (rep < 0) continue;
        runs[key]!.push(wallMs);
        clientRuns[key]!.push(clientMs);
      }
      console.log(`  ${rep < 0 ? 'warm-up' : `run ${rep + 1}`}: ${round.join(', ')}`);
    }
    const copyMs = median(runs.copyOne!);
    const row = (name: string, key: string, note: string) => {
      const ms = median(runs[key]!);
      return [
        name,
        runs[key]!.map(fmtMs).join(' / '),
        fmtMs(ms),
        fmtMs(median(clientRuns[key]!)),
        fmtKRowsPerSec(LEVELS_TOTAL, ms),
        fmtRatio(copyMs / ms),
        note,
      ];
    };
    printTable(
      `levels written per second (median of ${REPEATS}; target: pipeline ≥ 0.80× the batched bulk load)`,
      ['method', 'runs ms', 'median ms', 'client CPU ms', 'k levels/s', 'vs COPY', 'what it is'],
      [
        row('raw COPY, one statement', 'copyOne', `${fmtInt(BOOKS)} snapshot rows encoded beforehand, in one COPY`),
        row('bulk load', 'bulkLoad', `the same books encoded and hashed by the client, in one COPY, no change detection`),
        row('bulk load, batched', 'bulkLoadBatched', `the same, one COPY + commit per ${BATCH_BOOKS} books (the pipeline's transactions)`),
        row('raw COPY, batched', 'copyBatched', `one COPY + commit per ${BATCH_BOOKS} books`),
        row(
          'pipeline OrderBookWriter',
          'pipeline',
          `${BATCH_BOOKS} books a transaction: write lock, partitions, compare, COPY of the new rows, commit; the next batch hashed meanwhile`,
        ),
        row('pipeline, one call at a time', 'pipelineCalls', `the same, each writeOrderBooks call waiting for the one before`),
        row(
          'old layout: raw COPY of the levels as rows',
          'copyLevelRows',
          `${fmtInt(LEVELS_TOTAL)} level rows in one COPY, as before 0013`,
        ),
      ],
    );
    const vs = (key: string) => fmtRatio(median(runs[key]!) / median(runs.pipeline!));
    console.log(`\n  pipeline vs the bulk load in the pipeline's transactions (the target's baseline, ≥ 0.80×): ${vs('bulkLoadBatched')}`);
    console.log(`  pipeline vs the same bulk load in one COPY: ${vs('bulkLoad')}`);
    console.log(`  pipeline vs the old layout's raw COPY of the same levels: ${vs('copyLevelRows')}`);
    console.log(
      `  one writeOrderBooks call at a time vs the batched bulk load: ${fmtRatio(median(runs.bulkLoadBatched!) / median(runs.pipelineCalls!))}`,
    );
  } finally {
    await cleanup(
      async () => pool?.end({ timeout: 5 }),
      async () => db && dropScratch(serverUrl, db),
    );
  }
}
