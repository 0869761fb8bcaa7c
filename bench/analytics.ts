/**
 * Benchmark of the analyst layer's two latency-critical reads over a large price history:
 *   - the as-of lookup, analytics.price_as_of(market, instant)          target p95 <= 5 ms
 *   - a 90-day hourly candle query, analytics.candles(market, '1 hour') target p95 <= 100 ms
 *
 *   npx tsx bench/analytics.ts [--markets 1000] [--rows 10000] [--samples 1000] [--keep] [--reuse]
 *
 * Creates a scratch database (bench_analytics) on the local server, or on BENCH_ADMIN_URL (a
 * database URL whose user may CREATE DATABASE), migrates it, generates markets × rows price
 * snapshots with `insert ... select generate_series`, measures, and drops it (unless --keep).
 * The rows are inserted in time order across markets, as the pipeline writes them, so one
 * market's history is scattered over the table's pages: the realistic (unclustered) layout.
 * Latency is measured at the client, one query at a time, warm cache, over prepared statements.
 */
import { parseArgs } from 'node:util';

import postgres from 'postgres';

import { migrate } from '../src/db/migrate.js';
import { type LatencyStats, measureLatency, seededRandom } from './support/latency.js';
import { partitionedSize } from './support/partitionedSize.js';
import { fmtMB, log, timed } from './support/report.js';

const { values: args } = parseArgs({
  options: {
    markets: { type: 'string', default: '1000' },
    rows: { type: 'string', default: '10000' },
    samples: { type: 'string', default: '1000' },
    keep: { type: 'boolean', default: false },
    reuse: { type: 'boolean', default: false },
  },
});
const MARKETS = Number(args.markets);
const ROWS_PER_MARKET = Number(args.rows);
const SAMPLES = Number(args.samples);
const ADMIN_URL = process.env.BENCH_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DB_NAME = 'bench_analytics';

/** One market's snapshots are ~SPACING_S apart (+ jitter), so 10k rows span 180 days. */
const START = '2025-01-01T00:00:00Z';
const SPACING_S = 1555;
const SPAN_DAYS = (ROWS_PER_MARKET * SPACING_S) / 86_400;

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

async function generate(sql: postgres.Sql): Promise<void> {
  log(
    `generating ${MARKETS} markets × ${ROWS_PER_MARKET} price snapshots (${(MARKETS * ROWS_PER_MARKET).toLocaleString('en')} rows, ${SPAN_DAYS.toFixed(0)} days)`,
  );
  // No default partition: the months of the generated history must exist before it is written.
  await sql`select prediction.ensure_month_partitions(${START}::timestamptz,
                                                      ${START}::timestamptz + make_interval(secs => ${ROWS_PER_MARKET * SPACING_S + 1000}))`;
  await timed('events, markets, state history', async () => {
    await sql`
      insert into prediction.events (event_id, provider, category, raw, first_seen_at, last_seen_at, changed_at)
      select 'E' || m, 'polymarket', 'crypto', '{}', ${START}::timestamptz, now(), now() from generate_series(1, ${MARKETS}) m`;
    await sql`
      insert into prediction.markets (market_id, event_id, provider, status, open_time, close_time, raw, first_seen_at, last_seen_at, changed_at)
      select 'M' || m, 'E' || m, 'polymarket', 'open', ${START}::timestamptz, ${START}::timestamptz + interval '1 year', '{}',
             ${START}::timestamptz, now(), now()
      from generate_series(1, ${MARKETS}) m`;
    // Two states per market: open, then closed a week before the end of its history.
    await sql`
      insert into prediction.market_state_history (market_id, status, valid_from, valid_to)
      select 'M' || m, 'open', ${START}::timestamptz, ${START}::timestamptz + make_interval(days => ${Math.floor(SPAN_DAYS) - 7})
      from generate_series(1, ${MARKETS}) m
      union all
      select 'M' || m, 'closed', ${START}::timestamptz + make_interval(days => ${Math.floor(SPAN_DAYS) - 7}), null
      from generate_series(1, ${MARKETS}) m`;
  });
  // In chunks of snapshot indexes, each chunk in time order across markets (as the pipeline writes).
  const chunk = Math.max(1, Math.floor(1_000_000 / MARKETS));
  await timed('pricing_snapshots', async () => {
    for (let from = 0; from < ROWS_PER_MARKET; from += chunk) {
      const to = Math.min(ROWS_PER_MARKET, from + chunk) - 1;
      await sql`
        insert into prediction.pricing_snapshots
          (market_id, observed_at, last_observed_at, buy_yes_micro_usd, buy_no_micro_usd, sell_yes_micro_usd, sell_no_micro_usd, volume)
        select 'M' || m,
               o.observed_at,
               o.observed_at + make_interval(secs => floor(random() * 500)),
               p.mid + p.half, 1000000 - p.mid + p.half, p.mid - p.half, 1000000 - p.mid - p.half,
               i * 10
        from generate_series(${from}::int, ${to}::int) i
        cross join generate_series(1, ${MARKETS}) m
        -- jitter < spacing - confirmation window: observed_at stays strictly increasing per market
        cross join lateral (select ${START}::timestamptz
                                   + make_interval(secs => i::float8 * ${SPACING_S} + floor(random() * 1000)) as observed_at) o
        cross join lateral (select (100000 + floor(random() * 80) * 10000)::numeric as mid,
                                   (5000 + floor(random() * 3) * 5000)::numeric as half) p
        order by i, m`;
      process.stderr.write(`\r  ${(((to + 1) / ROWS_PER_MARKET) * 100).toFixed(0)} %`);
    }
    process.stderr.write('\n');
  });
  await timed(
    'vacuum analyze',
    () => sql`vacuum (analyze) prediction.pricing_snapshots, prediction.market_state_history, prediction.markets`,
  );
  const size = await partitionedSize(sql, 'prediction.pricing_snapshots');
  log(`  pricing_snapshots: heaps ${fmtMB(size.heapBytes)} MB, indexes ${fmtMB(size.indexBytes)} MB over ${size.partitions} partitions`);
}

interface Stats extends LatencyStats {
  query: string;
}

async function measure(query: string, n: number, run: (i: number) => Promise<{ count: number }>): Promise<Stats> {
  return { query, ...(await measureLatency(n, run)) };
}

/** EXPLAIN cannot see inside a plpgsql function; auto_explain can, when loaded (superuser only). */
async function nestedPlan(url: string, marketId: string, from: Date, to: Date): Promise<string> {
  const notices: string[] = [];
  const conn = postgres(url, { max: 1, onnotice: (n) => void notices.push(String(n.message)) });
  try {
    await conn`load 'auto_explain'`;
    await conn`select set_config('auto_explain.log_min_duration', '0', false), set_config('auto_explain.log_nested_statements', 'on', false),
                      set_config('auto_explain.log_analyze', 'on', false), set_config('auto_explain.log_buffers', 'on', false),
                      set_config('auto_explain.log_level', 'notice', false)`;
    await conn`select count(*) from analytics.candles(${marketId}, '1 hour', ${from}, ${to})`;
    const inner = notices.find((n) => n.includes('WITH fetched AS')) ?? '';
    return inner.slice(inner.indexOf('\n', inner.lastIndexOf('ORDER BY b.b_start')) + 1).replace(/^/gm, '    ');
  } catch (error) {
    return `    (not available: ${(error as Error).message})`;
  } finally {
    await conn.end();
  }
}

async function main(): Promise<void> {
  const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  const [existing] = await admin`select 1 from pg_database where datname = ${DB_NAME}`;
  const reuse = args.reuse && existing !== undefined;
  if (!reuse) {
    await admin`drop database if exists ${admin(DB_NAME)} with (force)`;
    await admin`create database ${admin(DB_NAME)}`;
  }
  const url = withDatabase(ADMIN_URL, DB_NAME);
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await migrate(url);
    if (reuse) log(`reusing database ${DB_NAME} (generated with the same --markets and --rows, one hopes)`);
    else await generate(sql);
    const [server] = await sql<{ version: string; shared_buffers: string }[]>`
      select current_setting('server_version') as version, current_setting('shared_buffers') as shared_buffers`;

    const random = seededRandom(42);
    const start = Date.parse(START);
    const spanMs = SPAN_DAYS * 86_400_000;
    const market = () => `M${1 + Math.floor(random() * MARKETS)}`;
    const instant = (marginMs = 0) => new Date(start + random() * (spanMs - marginMs));
    const ninetyDaysMs = 90 * 86_400_000;

    const results: Stats[] = [];
    results.push(
      await measure('price_as_of(market, at)', SAMPLES, () => sql`select * from analytics.price_as_of(${market()}, ${instant()})`),
    );
    results.push(
      await measure('candles(market, 1 hour, 90 days)', Math.max(50, Math.floor(SAMPLES / 5)), () => {
        const from = instant(ninetyDaysMs);
        return sql`select * from analytics.candles(${market()}, '1 hour', ${from}, ${new Date(from.getTime() + ninetyDaysMs)})`;
      }),
    );
    results.push(
      await measure('prices_as_of(1,000 pairs) [backtest batch]', Math.max(20, Math.floor(SAMPLES / 20)), () => {
        const ids = Array.from({ length: 1000 }, market);
        const ats = Array.from({ length: 1000 }, () => instant().toISOString());
        return sql`select * from analytics.prices_as_of(${ids}::text[], ${ats}::timestamptz[])`;
      }),
    );
    results.push(
      await measure(
        'market_latest (all markets)',
        Math.max(10, Math.floor(SAMPLES / 50)),
        () => sql`select * from analytics.market_latest`,
      ),
    );

    const someMarket = market();
    const someFrom = instant(ninetyDaysMs);
    log('\nplan of an as-of lookup:');
    const asOfPlan = await sql`explain (analyze, buffers, costs off) select * from analytics.price_as_of(${someMarket}, ${instant()})`;
    log(asOfPlan.map((r) => `    ${r['QUERY PLAN']}`).join('\n'));
    log('\nplan of the query inside a 90-day hourly candles call (auto_explain):');
    log(await nestedPlan(url, someMarket, someFrom, new Date(someFrom.getTime() + ninetyDaysMs)));

    const fmt = (x: number) => x.toFixed(2).padStart(8);
    console.log(
      `\nPostgres ${server!.version}, shared_buffers ${server!.shared_buffers}; ${MARKETS.toLocaleString('en')} markets × ${ROWS_PER_MARKET.toLocaleString('en')} snapshots = ${(MARKETS * ROWS_PER_MARKET).toLocaleString('en')} pricing rows over ${SPAN_DAYS.toFixed(0)} days; client-side latency, warm cache\n`,
    );
    console.log(
      `${'query'.padEnd(46)} ${'n'.padStart(5)} ${'p50 ms'.padStart(8)} ${'p95 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'max ms'.padStart(8)} ${'rows'.padStart(6)}`,
    );
    for (const r of results) {
      console.log(
        `${r.query.padEnd(46)} ${String(r.n).padStart(5)} ${fmt(r.p50)} ${fmt(r.p95)} ${fmt(r.p99)} ${fmt(r.max)} ${r.rows.toFixed(0).padStart(6)}`,
      );
    }
    console.log('\ntargets: as-of p95 <= 5 ms; 90-day hourly candles p95 <= 100 ms');
  } finally {
    await sql.end();
    if (!args.keep && !args.reuse) await admin`drop database if exists ${admin(DB_NAME)} with (force)`;
    else log(`kept database ${DB_NAME}`);
    await admin.end();
  }
}

await main();
