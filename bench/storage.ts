/**
 * Storage benchmark of the current layout (0013: a book's levels as fixed-point arrays in its
 * snapshot row; prices, books and states in monthly partitions): bytes on disk per order-book
 * level and per price row (indexes included), the analyst reads that grow with them at N price
 * rows, and the time retention takes to drop a month. The figures feed docs/scaling.md. One file
 * on purpose: the parameters that define the filled database and the SQL that fills it must stay
 * side by side, or a reused database would not be what it claims.
 *
 *   npx tsx bench/storage.ts [--price-rows 10000000] [--fresh] [--skip-pack] [--skip-drop] [--db URL] [--samples 1000] ...
 *
 * The database `bench_storage` is created on the server of --db (default: the local one), migrated,
 * given the monthly partitions of the filled range (prediction.ensure_month_partitions, as the
 * pipeline does before it writes) and filled with `insert ... select generate_series`, seeded
 * (setseed), in the order the pipeline writes: time order across markets, each book's levels
 * encoded into its row by prediction.encode_levels, the pipeline's encoder. It is kept: a
 * later run with the same parameters (and the same migrations) measures it again without filling;
 * other parameters, or --fresh, rebuild it. Drop it with `drop database bench_storage`.
 *
 * Price history: markets × --rows-per-market snapshots (default 10,000, a change about every
 * 26 minutes over 180 days, as bench/analytics.ts), so --price-rows scales the number of markets,
 * not the density of one. Prices are whole cents in micro-USD: a per-market level skewed toward
 * 0 and 1 that wanders, spreads of 1-5 cents, 2 % of quotes without a NO bid (the edge values).
 * Order books: --book-markets markets, a snapshot every --book-interval-sec (default 120 s, a
 * busy market fetched every minute whose book changes every other fetch) over --book-days; 10-40
 * levels a side at 0.1, 0.5 or 1 cent steps (fewer near 0 and 100), 2 % null books; sizes whole
 * contracts on Kalshi, cents of a contract on Polymarket. The simulator section measures how
 * many books and prices change between two fetches at a given interval.
 *
 * Then every closed month is packed (packClosedPartitions) on a file copy (bench_storage_packed,
 * dropped afterwards; --skip-pack skips it), and the tables are measured again.
 * Retention is timed last, on a file copy of the database (bench_storage_retention, dropped
 * afterwards; --skip-drop skips it): retention as the pipeline applies it (applyRetention: each
 * partition's rows counted, then the partition dropped in a transaction of its own) with the
 * horizon at the end of the first month of prices, so that exactly one month goes.
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';

import postgres from 'postgres';

import { measureLatency, seededRandom } from './support/latency.js';
import { type PartitionedSize, partitionedSize } from './support/partitionedSize.js';
import { fmtInt, fmtMs, log, printTable, section, timed } from './support/report.js';
import { createScratch, databaseUrl, DEFAULT_SERVER_URL, type ScratchDb } from './support/scratchDb.js';
import { simulatorChangeShares } from './support/simulatorChangeShares.js';
import { timePacking } from './support/timePacking.js';
import { timeRetentionDrop } from './support/timeRetentionDrop.js';

const { values: args } = parseArgs({
  options: {
    'price-rows': { type: 'string', default: '10000000' },
    'rows-per-market': { type: 'string', default: '10000' },
    'book-markets': { type: 'string', default: '100' },
    'book-days': { type: 'string', default: '2' },
    'book-interval-sec': { type: 'string', default: '120' },
    samples: { type: 'string', default: '1000' },
    seed: { type: 'string', default: '42' },
    fresh: { type: 'boolean', default: false },
    'skip-simulator': { type: 'boolean', default: false },
    'skip-drop': { type: 'boolean', default: false },
    'skip-pack': { type: 'boolean', default: false },
    db: { type: 'string', default: DEFAULT_SERVER_URL },
  },
});

function positiveInt(name: keyof typeof args): number {
  const n = Number(args[name]);
  if (!Number.isSafeInteger(n) || n < 1) throw new Error(`--${name} must be a positive integer, got ${String(args[name])}`);
  return n;
}

const ROWS_PER_MARKET = positiveInt('rows-per-market');
const PRICE_MARKETS = Math.ceil(positiveInt('price-rows') / ROWS_PER_MARKET);
const BOOK_MARKETS = positiveInt('book-markets');
const BOOK_DAYS = positiveInt('book-days');
const BOOK_INTERVAL_SEC = positiveInt('book-interval-sec');
const SAMPLES = positiveInt('samples');
const SEED = positiveInt('seed');
const DB_NAME = 'bench_storage';

/** Bump when the fill below changes: a database filled by another version is rebuilt. */
const FILL_VERSION = 3;
const PRICE_START = '2025-01-01T00:00:00Z';
const PRICE_SPACING_SEC = 1555;
/** Each price row lands up to this much after its slot. */
const PRICE_JITTER_SEC = 1000;
const PRICE_SPAN_DAYS = (ROWS_PER_MARKET * PRICE_SPACING_SEC) / 86_400;
const PRICE_END = new Date(Date.parse(PRICE_START) + ((ROWS_PER_MARKET - 1) * PRICE_SPACING_SEC + PRICE_JITTER_SEC) * 1000);
const BOOK_START = '2025-03-01T00:00:00Z';
const BOOK_SLOTS = Math.floor((BOOK_DAYS * 86_400) / BOOK_INTERVAL_SEC);
const BOOK_END = new Date(Date.parse(BOOK_START) + BOOK_SLOTS * BOOK_INTERVAL_SEC * 1000);
/** Book slots filled per statement, as the sweep writes batches. */
const BOOK_SLOTS_PER_WRITE = 60;
/** The old layout's bytes per level (a row each: heap 73.7 + primary key 106.7), measured by this benchmark before 0013. */
const LEVEL_BYTES_AS_ROWS = 180.4;
const LEVEL_BYTES_TARGET = 16;
/** What analytics.cost_to_buy_yes is asked to fill: a few levels of a generated book. */
const COST_CONTRACTS = 1000;

const MIGRATIONS = (
  JSON.parse(readFileSync(new URL('../migrations/meta/_journal.json', import.meta.url), 'utf8')) as { entries: { tag: string }[] }
).entries.map((e) => e.tag);

const PARAMS = {
  fillVersion: FILL_VERSION,
  seed: SEED,
  priceMarkets: PRICE_MARKETS,
  rowsPerMarket: ROWS_PER_MARKET,
  bookMarkets: BOOK_MARKETS,
  bookDays: BOOK_DAYS,
  bookIntervalSec: BOOK_INTERVAL_SEC,
  migrations: MIGRATIONS,
};

/** The filled database if it holds exactly PARAMS (reused), else a fresh, migrated one. */
async function prepare(): Promise<{ db: ScratchDb; reused: boolean }> {
  const db = { name: DB_NAME, url: databaseUrl(args.db, DB_NAME) };
  if (!args.fresh) {
    const admin = postgres(args.db, { max: 1, onnotice: () => {} });
    const [exists] = await admin`select 1 from pg_database where datname = ${DB_NAME}`.finally(() => admin.end());
    if (exists) {
      const sql = postgres(db.url, { max: 1, onnotice: () => {} });
      // Absent when a fill was interrupted: the query fails, and the database is rebuilt.
      const [row] = await sql<{ same: boolean }[]>`select params = ${sql.json(PARAMS)}::jsonb as same from public.bench_storage_fill`
        .catch(() => [])
        .finally(() => sql.end());
      if (row?.same) return { db, reused: true };
      log(`${DB_NAME} was filled with other parameters (or not completely): rebuilding`);
    }
  }
  return { db: await createScratch(args.db, DB_NAME), reused: false };
}

async function fill(sql: postgres.Sql): Promise<void> {
  const markets = Math.max(PRICE_MARKETS, BOOK_MARKETS);
  log(
    `filling ${DB_NAME}: ${fmtInt(PRICE_MARKETS)} markets × ${fmtInt(ROWS_PER_MARKET)} price rows over ${PRICE_SPAN_DAYS.toFixed(0)} days; ` +
      `${fmtInt(BOOK_MARKETS)} markets × ${fmtInt(BOOK_SLOTS)} book snapshots over ${BOOK_DAYS} days`,
  );
  // One connection: setseed holds for the session, and a serial plan draws random() in one order.
  await sql`select set_config('max_parallel_workers_per_gather', '0', false), set_config('jit', 'off', false), setseed(${(SEED % 1000) / 1000})`;
  // No default partition: every month written to must exist first.
  await sql`select prediction.ensure_month_partitions(${PRICE_START}::timestamptz, ${PRICE_END}),
                   prediction.ensure_month_partitions(${BOOK_START}::timestamptz, ${BOOK_END})`;
  await timed('markets, events, state history', async () => {
    await sql`
      create table public.bench_market as
      select r.m, i.market_id, r.polymarket,
             -- Most markets trade near 0 or 1: a level skewed toward the ends, in whole cents.
             greatest(2, least(97, round(50 + 48 * sign(r.u - 0.5) * abs(2 * r.u - 1) ^ 0.5)))::int as base_mid,
             (1000 + floor(r.v * 5000000))::numeric as base_volume
      -- Four markets an event, 55 % of the events on Polymarket.
      from (select m, (m - 1) / 4 % 20 < 11 as polymarket, random() as u, random() as v from generate_series(1, ${markets}::int) m) r
      -- Ids as upstream spells them: POLY-2470848, or Kalshi tickers such as KXNBAGAME-25OCT21-T77.
      cross join lateral (select case when r.polymarket then 'POLY-' || (2000000 + r.m * 37)
        else 'KX' || (array['BTCD', 'NBAGAME', 'FEDDECISION', 'HIGHNY', 'INXD', 'MLBGAME'])[1 + r.m % 6]
             || '-25' || upper(to_char(date '2025-01-01' + r.m % 365, 'MonDD')) || '-T' || r.m end as market_id) i
      order by r.m`;
    await sql`
      insert into prediction.events (event_id, provider, category, raw, first_seen_at, last_seen_at, changed_at)
      select 'EV-' || ((m - 1) / 4 + 1), case when polymarket then 'polymarket' else 'kalshi' end, 'crypto', '{}',
             ${PRICE_START}::timestamptz, now(), now()
      from public.bench_market where (m - 1) % 4 = 0`;
    await sql`
      insert into prediction.markets (market_id, event_id, provider, status, open_time, close_time, raw, first_seen_at, last_seen_at, changed_at)
      select market_id, 'EV-' || ((m - 1) / 4 + 1), case when polymarket then 'polymarket' else 'kalshi' end,
             'open', ${PRICE_START}::timestamptz, ${PRICE_START}::timestamptz + interval '1 year', '{}', ${PRICE_START}::timestamptz, now(), now()
      from public.bench_market`;
    // Two states per market: open, then closed a week before the end of its price history.
    const closedAfterDays = Math.max(1, Math.floor(PRICE_SPAN_DAYS) - 7);
    await sql`
      insert into prediction.market_state_history (market_id, status, valid_from, valid_to)
      select market_id, 'open', ${PRICE_START}::timestamptz, ${PRICE_START}::timestamptz + make_interval(days => ${closedAfterDays})
      from public.bench_market
      union all
      select market_id, 'closed', ${PRICE_START}::timestamptz + make_interval(days => ${closedAfterDays}), null from public.bench_market`;
  });

  const chunk = Math.max(1, Math.floor(1_000_000 / PRICE_MARKETS));
  await timed('pricing_snapshots', async () => {
    for (let from = 0; from < ROWS_PER_MARKET; from += chunk) {
      const to = Math.min(ROWS_PER_MARKET, from + chunk) - 1;
      await sql`
        insert into prediction.pricing_snapshots
          (market_id, observed_at, last_observed_at, buy_yes_micro_usd, buy_no_micro_usd, sell_yes_micro_usd, sell_no_micro_usd, volume)
        select x.market_id, x.at,
               -- confirmed by zero to two later crawls, always before the next change
               x.at + make_interval(secs => floor(x.r1 * 2) * 540),
               case when x.no_bid_missing then 1000000 else q.ask * 10000 end,
               1000000 - q.bid * 10000,
               q.bid * 10000,
               case when x.no_bid_missing then 0 else 1000000 - q.ask * 10000 end,
               floor(x.base_volume * (1 + x.i::numeric / ${ROWS_PER_MARKET}))
        -- random() is drawn in this target list only: Postgres evaluates a FROM-clause subquery that
        -- does not vary with the row once, and would give every row the same draw.
        from (
          select i, b.m, b.market_id, b.base_mid, b.base_volume, random() < 0.02 as no_bid_missing,
                 random() as r1, random() as r2, random() as r3,
                 ${PRICE_START}::timestamptz + make_interval(secs => i::float8 * ${PRICE_SPACING_SEC} + floor(random() * ${PRICE_JITTER_SEC})) as at
          from generate_series(${from}::int, ${to}::int) i cross join public.bench_market b
          where b.m <= ${PRICE_MARKETS}) x
        cross join lateral (select greatest(1, least(97, x.base_mid + round(6 * sin(x.i / 40.0 + x.m)) + floor(x.r2 * 3) - 1))::int as bid,
                                   (array[1, 1, 1, 1, 1, 1, 2, 2, 3, 5])[1 + floor(x.r3 * 10)::int] as spread) s
        cross join lateral (select s.bid, least(99, s.bid + s.spread) as ask) q
        order by x.i, x.m`;
      process.stderr.write(`\r  ${(((to + 1) / ROWS_PER_MARKET) * 100).toFixed(0)} %`);
    }
    process.stderr.write('\n');
  });

  await timed('order books', async () => {
    await sql`
      create table public.bench_book_plan as
      select x.market_id, x.m, x.polymarket, x.slot, x.at, x.is_null, p.mid, g.yes_gap, g.no_gap,
             -- a level every gap cents down from the best bid, 10-40 a side, none below 0.1 cent
             case when x.is_null then 0 else least(10 + floor(x.r3 * 31)::int, floor((p.mid - 1.1) / g.yes_gap)::int + 1) end as yes_n,
             case when x.is_null then 0 else least(10 + floor(x.r4 * 31)::int, floor((98.9 - p.mid) / g.no_gap)::int + 1) end as no_n
      from (
        select s as slot, b.m, b.market_id, b.polymarket, b.base_mid, random() < 0.02 as is_null,
               random() as r1, random() as r2, random() as r3, random() as r4,
               ${BOOK_START}::timestamptz + make_interval(secs => s::float8 * ${BOOK_INTERVAL_SEC} + floor(random() * ${BOOK_INTERVAL_SEC / 2})) as at
        from generate_series(0, ${BOOK_SLOTS - 1}::int) s cross join public.bench_market b
        where b.m <= ${BOOK_MARKETS}) x
      cross join lateral (select greatest(3, least(97, x.base_mid + round(8 * sin(x.slot / 30.0 + x.m))))::int as mid) p
      cross join lateral (select (array[0.1, 0.5, 1.0, 1.0])[1 + floor(x.r1 * 4)::int] as yes_gap,
                                 (array[0.1, 0.5, 1.0, 1.0])[1 + floor(x.r2 * 4)::int] as no_gap) g
      order by x.slot, x.m`;
    for (let from = 0; from < BOOK_SLOTS; from += BOOK_SLOTS_PER_WRITE) {
      const to = Math.min(BOOK_SLOTS, from + BOOK_SLOTS_PER_WRITE) - 1;
      await sql`
        insert into prediction.orderbook_snapshots (market_id, observed_at, last_observed_at, yes_levels, no_levels, content_hash, is_null,
                                                    price_scale, size_scale, price_units, size_units, exact_price_cents, exact_sizes)
        select p.market_id, p.at, p.at + make_interval(secs => floor(p.r_confirm * ${BOOK_INTERVAL_SEC / 2})), p.yes_n, p.no_n,
               rtrim(translate(encode(sha256(convert_to(p.market_id || ':' || p.slot, 'UTF8')), 'base64'), '+/', '-_'), '='), p.is_null,
               e.price_scale, e.size_scale, e.price_units, e.size_units, e.exact_price_cents, e.exact_sizes
        from (select b.*, random() as r_confirm from public.bench_book_plan b where b.slot between ${from} and ${to}) p
        -- The YES bids best first, then the NO bids best first: the order the row keeps them in.
        cross join lateral (
          select coalesce(array_agg(l.price_cents order by l.yes desc, l.k), '{}') as prices,
                 coalesce(array_agg(l.size order by l.yes desc, l.k), '{}') as sizes
          from (
            select v.yes, v.k, v.price_cents,
                   case when p.polymarket then round((floor(exp(random() * 9)) + 1 + random())::numeric, 2)
                        else (floor(exp(random() * 9)) + 1)::numeric end as size
            from (select true as yes, trim_scale(p.mid - 1 - k * p.yes_gap) as price_cents, k from generate_series(0, p.yes_n - 1) k
                  union all
                  select false, trim_scale(99 - p.mid - k * p.no_gap), k from generate_series(0, p.no_n - 1) k) v
          ) l
        ) lv
        cross join lateral prediction.encode_levels(lv.prices, lv.sizes) e
        order by p.slot, p.m`;
      process.stderr.write(`\r  ${(((to + 1) / BOOK_SLOTS) * 100).toFixed(0)} %`);
    }
    process.stderr.write('\n');
  });
  await timed('vacuum analyze', () => sql`vacuum (analyze)`);
  await sql`create table public.bench_storage_fill (params jsonb not null, filled_at timestamptz not null default now())`;
  await sql`insert into public.bench_storage_fill (params) values (${sql.json(PARAMS)})`;
}

/** Latency of `run`, one query at a time, after a warm-up of 20. */
const measure = (n: number, run: () => Promise<{ count: number }>) => measureLatency(n, run, 20);

/** Counts and bytes of what the fill wrote (after VACUUM ANALYZE). */
async function storageFigures(sql: postgres.Sql) {
  const [counts] = await sql<{ levels: string; snapshots: string; array_bytes: string; prices: string }[]>`
    select s.levels, s.snapshots, s.array_bytes, (select count(*) from prediction.pricing_snapshots) as prices
    from (select coalesce(sum(yes_levels + no_levels), 0) as levels, count(*) as snapshots,
                 coalesce(sum(coalesce(pg_column_size(price_units), 0) + coalesce(pg_column_size(size_units), 0)
                              + coalesce(pg_column_size(exact_price_cents), 0) + coalesce(pg_column_size(exact_sizes), 0)), 0) as array_bytes
          from prediction.orderbook_snapshots) s`;
  return {
    levels: Number(counts!.levels),
    snapshots: Number(counts!.snapshots),
    arrayBytes: Number(counts!.array_bytes),
    prices: Number(counts!.prices),
    books: await partitionedSize(sql, 'prediction.orderbook_snapshots'),
    pricing: await partitionedSize(sql, 'prediction.pricing_snapshots'),
  };
}

/** Bytes per order-book level of `books` (all storage, then heap + indexes), and whether the target is met. */
function levelBytes(books: PartitionedSize, levels: number): string {
  const total = books.totalBytes / levels;
  const met = total <= LEVEL_BYTES_TARGET ? 'met' : 'NOT met';
  return `${total.toFixed(1)} (heap ${(books.heapBytes / levels).toFixed(1)} + indexes ${(books.indexBytes / levels).toFixed(1)}); ${met}`;
}

/** Bytes per price row of `pricing`: heap + indexes. */
const priceRowBytes = (pricing: PartitionedSize, prices: number) =>
  `${(pricing.heapBytes / prices).toFixed(1)} + ${(pricing.indexBytes / prices).toFixed(1)}`;

/** The start of the UTC month after the one holding `at`. */
const nextMonth = (at: Date) => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));

async function main(): Promise<void> {
  const { db, reused } = await prepare();
  const sql = postgres(db.url, { max: 1, onnotice: () => {} });
  let size: Awaited<ReturnType<typeof storageFigures>>;
  try {
    if (reused) log(`reusing ${DB_NAME}, filled with these parameters (--fresh rebuilds it)`);
    else await fill(sql);
    const [server] = await sql<{ version: string; shared_buffers: string }[]>`
      select current_setting('server_version') as version, current_setting('shared_buffers') as shared_buffers`;
    size = await storageFigures(sql);
    const ids = (await sql<{ market_id: string }[]>`select market_id from public.bench_market order by m`).map((r) => r.market_id);

    const loadBefore = loadavg();
    const random = seededRandom(SEED);
    const pick = (n: number) => ids[Math.floor(random() * n)]!;
    const priceStart = Date.parse(PRICE_START);
    const priceSpanMs = PRICE_SPAN_DAYS * 86_400_000;
    const dayMs = 86_400_000;
    const ninetyDaysMs = 90 * dayMs;
    const asOf = await measure(
      SAMPLES,
      () => sql`select * from analytics.price_as_of(${pick(PRICE_MARKETS)}, ${new Date(priceStart + random() * priceSpanMs)})`,
    );
    const candles = await measure(Math.max(50, Math.floor(SAMPLES / 5)), () => {
      const from = new Date(priceStart + random() * Math.max(0, priceSpanMs - ninetyDaysMs));
      return sql`select * from analytics.candles(${pick(PRICE_MARKETS)}, '1 hour', ${from}, ${new Date(from.getTime() + ninetyDaysMs)})`;
    });
    const bookStart = Date.parse(BOOK_START);
    const top = await measure(Math.max(50, Math.floor(SAMPLES / 10)), () => {
      const from = new Date(bookStart + random() * Math.max(0, BOOK_DAYS * dayMs - dayMs));
      return sql`select * from analytics.orderbook_top where market_id = ${pick(BOOK_MARKETS)}
                   and valid_from >= ${from} and valid_from < ${new Date(from.getTime() + dayMs)} order by valid_from`;
    });
    const cost = await measure(
      SAMPLES,
      () =>
        sql`select * from analytics.cost_to_buy_yes(${pick(BOOK_MARKETS)}, ${COST_CONTRACTS}, ${new Date(bookStart + random() * BOOK_DAYS * dayMs)})`,
    );
    const loadAfter = loadavg();

    const perLevel = size.books.totalBytes / size.levels;
    section('storage.ts: bytes on disk of the current layout, and the reads that grow with them');
    console.log(
      `\nPostgres ${server!.version}, shared_buffers ${server!.shared_buffers}; ${reused ? 'reused' : 'freshly filled'} database; ` +
        `load average ${loadBefore.map((x) => x.toFixed(1)).join(' / ')} before the queries, ${loadAfter.map((x) => x.toFixed(1)).join(' / ')} after (1 / 5 / 15 min)`,
    );
    printTable(
      'bytes on disk: sums over the partitions (pg_partition_tree) after VACUUM ANALYZE',
      ['figure', 'value'],
      [
        [
          'order-book levels / snapshots',
          `${fmtInt(size.levels)} / ${fmtInt(size.snapshots)} (${(size.levels / size.snapshots).toFixed(1)} levels a book, ${size.books.partitions} partitions)`,
        ],
        [`bytes per level, all of orderbook_snapshots (target ≤ ${LEVEL_BYTES_TARGET})`, levelBytes(size.books, size.levels)],
        ["bytes per level in the arrays' own values (pg_column_size)", (size.arrayBytes / size.levels).toFixed(1)],
        ['bytes per level as rows, before 0013', `${LEVEL_BYTES_AS_ROWS} (${(LEVEL_BYTES_AS_ROWS / perLevel).toFixed(1)}× as many)`],
        ['bytes per snapshot row (a stored book), total', fmtInt(size.books.totalBytes / size.snapshots)],
        ['price rows', `${fmtInt(size.prices)} (${size.pricing.partitions} partitions)`],
        ['bytes per price row: heap + indexes', priceRowBytes(size.pricing, size.prices)],
        ['bytes per price row, total', (size.pricing.totalBytes / size.prices).toFixed(1)],
      ],
    );
    printTable(
      `analyst reads at ${fmtInt(size.prices)} price rows (client-side, warm cache, prepared, one at a time)`,
      ['query', 'n', 'p50 ms', 'p95 ms', 'target p95', 'rows'],
      [
        ['analytics.price_as_of(market, at)', asOf.n, fmtMs(asOf.p50), fmtMs(asOf.p95), '≤ 5 ms', asOf.rows.toFixed(0)],
        [
          "analytics.candles(market, '1 hour', 90 days)",
          candles.n,
          fmtMs(candles.p50),
          fmtMs(candles.p95),
          '≤ 100 ms',
          candles.rows.toFixed(0),
        ],
        ['analytics.orderbook_top, one market, one day', top.n, fmtMs(top.p50), fmtMs(top.p95), '', top.rows.toFixed(0)],
        [
          `analytics.cost_to_buy_yes(market, ${fmtInt(COST_CONTRACTS)}, at)`,
          cost.n,
          fmtMs(cost.p50),
          fmtMs(cost.p95),
          '',
          cost.rows.toFixed(0),
        ],
      ],
    );

    if (!args['skip-simulator']) {
      const sim = simulatorChangeShares(SEED, [60, 600, 2700, 3600, 6 * 3600]);
      printTable(
        `simulator (seed ${SEED}, ${fmtInt(sim.markets)} markets, live shape, default trade rate): share of open markets changed after an interval`,
        ['interval', 'books changed', 'prices changed'],
        sim.rows,
      );
      console.log(
        `\none crawl of that world: ${fmtInt(sim.budget.listingPages)} listing pages for ${fmtInt(sim.stats.activeEvents)} active events; ` +
          `${fmtInt(sim.budget.orderBooks)} open listed markets (${fmtInt(sim.stats.openMarkets)} open in all)`,
      );
    }
  } finally {
    await sql.end();
  }
  if (!args['skip-pack']) await reportPacking(db, size);
  if (!args['skip-drop']) await reportRetentionDrop(db);
}

/** Every month packed as the crawl packs a closed month, measured on a copy (the kept database stays as written). */
async function reportPacking(db: ScratchDb, size: Awaited<ReturnType<typeof storageFigures>>): Promise<void> {
  const packing = await timePacking(args.db, db, new Date());
  const slowest = packing.packed.reduce((a, b) => (b.indexBytesBefore > a.indexBytesBefore ? b : a));
  printTable(
    `closed months packed (packClosedPartitions: REINDEX INDEX CONCURRENTLY of ${packing.packed.length} partitions, one after another, ` +
      `${packing.seconds.toFixed(1)} s in all), on a copy made in ${packing.cloneSeconds.toFixed(1)} s`,
    ['figure', 'as written', 'packed'],
    [
      [
        `bytes per level, all of orderbook_snapshots (target ≤ ${LEVEL_BYTES_TARGET})`,
        levelBytes(size.books, size.levels),
        levelBytes(packing.books, size.levels),
      ],
      ['bytes per price row: heap + indexes', priceRowBytes(size.pricing, size.prices), priceRowBytes(packing.pricing, size.prices)],
      [
        'largest partition index set',
        `${slowest.partition}: ${fmtInt(slowest.indexBytesBefore / 1024)} kB`,
        `${fmtInt(slowest.indexBytesAfter / 1024)} kB`,
      ],
    ],
  );
}

/** Retention of the first month of prices, timed on a copy (the kept database stays whole). */
async function reportRetentionDrop(db: ScratchDb): Promise<void> {
  const horizon = nextMonth(new Date(PRICE_START));
  const lastMonth = new Date(Date.UTC(PRICE_END.getUTCFullYear(), PRICE_END.getUTCMonth(), 1));
  // The setting that gives this horizon when the latest data is "now" (recorded with the drop).
  const retentionMonths = (lastMonth.getUTCFullYear() - horizon.getUTCFullYear()) * 12 + lastMonth.getUTCMonth() - horizon.getUTCMonth();
  const drop = await timeRetentionDrop(args.db, db, horizon, retentionMonths);
  printTable(
    `retention: applyRetention(horizon ${horizon.toISOString()}, ${retentionMonths} months), a count and a drop a partition, on a copy made in ${drop.cloneSeconds.toFixed(1)} s`,
    ['partition dropped', 'rows'],
    [
      ...drop.dropped.map((d) => [d.partitionName, fmtInt(d.rowCount)]),
      [
        `total: ${drop.dropped.length} partitions in ${drop.seconds.toFixed(2)} s`,
        fmtInt(drop.dropped.reduce((n, d) => n + d.rowCount, 0)),
      ],
    ],
  );
}

await main();
