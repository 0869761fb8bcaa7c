/**
 * The migrations after 0012 change the storage layout in place (order-book levels into arrays of
 * their snapshot, the history tables partitioned by month). A database filled at 0012 (the
 * fixture, see test/fixtures/simulated-0012/README.md) must keep every row, and every analytics
 * answer must stay the same: the test captures them at 0012, migrates, and asks again.
 */
import { fileURLToPath } from 'node:url';

import postgres from 'postgres';
import { expect, it } from 'vitest';

import { migrate } from '../../src/db/migrate.js';
import { decimalFromString } from '../../src/normalize/decimal.js';
import { historyRowCounts } from '../helpers/dbContent.js';
import { loadPlainDump } from '../helpers/loadPlainDump.js';
import { migrationsUpTo } from '../helpers/migrationsUpTo.js';
import { createTestDatabase } from '../helpers/testDatabase.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/simulated-0012/prediction-data.sql.gz', import.meta.url));
/** The migration the fixture was made at: the last one before the layout changes. */
const FIXTURE_MIGRATION_IDX = 12;

// Type OIDs: numeric; int8, int2, int4; timestamp, timestamptz.
const NUMERIC = 1700;
const INTEGERS = [20, 21, 23];
const TIMESTAMPTZ = 1184;
const TIMESTAMPS = [1114, TIMESTAMPTZ];

/**
 * A client that reads values as the server writes them, so that answers compare exactly. Numbers
 * become canonical decimal text: numeric keeps the scale it was computed with ('45.50' and '45.5'
 * are one value), and a layout that computes a column another way, or stores it as an integer, may
 * change the scale but must not change the value. Timestamps stay text: a JS Date would drop the
 * microseconds.
 */
function verbatimClient(databaseUrl: string) {
  return postgres(databaseUrl, {
    max: 1,
    onnotice: () => {},
    connection: { TimeZone: 'UTC' },
    types: {
      number: { to: NUMERIC, from: [NUMERIC, ...INTEGERS], serialize: String, parse: decimalFromString },
      instant: { to: TIMESTAMPTZ, from: TIMESTAMPS, serialize: String, parse: (text: string) => text },
    },
  });
}
type VerbatimSql = ReturnType<typeof verbatimClient>;

/** Where the point-in-time functions are asked, chosen from the data at 0012 (all values as text). */
interface Inputs {
  /** (market, contracts, instant) for cost_to_buy_yes: at a book's first observation, a second before it, and midway to the next. */
  costs: { market_id: string; contracts: string; at: string }[];
  /** (market, instant) for price_as_of and prices_as_of, chosen the same way from the price snapshots. */
  prices: { market_id: string; at: string }[];
  /** Cross-sections for prices_as_of(instant): the month starts inside the data (the partition bounds), a microsecond before each, and the median observation. */
  crossSections: string[];
  /** Markets whose whole observed range goes through candles. */
  candles: { market_id: string; from: string; to: string }[];
}

/** Contracts to buy, used in turn: the best level only, a few levels, more than most books hold. */
const CONTRACTS = ['1', '40', '2500.5'];
/** Points in time per table: about ten snapshots, three instants each. */
const SAMPLES = 10;

async function chooseInputs(sql: VerbatimSql): Promise<Inputs> {
  // Every n-th snapshot in (market, time) order, with the instants around it; `nullBookFirst` puts
  // a book the endpoint answered null first, so that one is among them.
  const around = (table: 'orderbook_snapshots' | 'pricing_snapshots', nullBookFirst: boolean) => sql<{ market_id: string; at: string }[]>`
    with s as (
      select market_id, observed_at,
             coalesce(lead(observed_at) over (partition by market_id order by observed_at), last_observed_at + interval '1 hour') as next_at,
             row_number() over (order by ${nullBookFirst ? sql`is_null desc,` : sql``} market_id, observed_at) as n,
             ceil(count(*) over () / ${SAMPLES}::numeric) as every
        from ${sql('prediction')}.${sql(table)})
    select s.market_id, a.at
      from s cross join lateral (values (1, s.observed_at), (2, s.observed_at - interval '1 second'),
                                        (3, s.observed_at + (s.next_at - s.observed_at) / 2)) as a(k, at)
     where s.n % s.every = 1
     order by s.n, a.k`;
  const books = await around('orderbook_snapshots', true);
  // Shifted by one per book, so that each instant meets each size.
  const costs = books.map((b, i) => ({ ...b, contracts: CONTRACTS[(i + Math.floor(i / 3)) % CONTRACTS.length]! }));
  const prices = await around('pricing_snapshots', false);
  const crossSections = (
    await sql<{ at: string }[]>`
      with months as (
        select distinct date_trunc('month', observed_at, 'UTC') as m from prediction.pricing_snapshots
        except select date_trunc('month', min(observed_at), 'UTC') from prediction.pricing_snapshots)
      select m - interval '1 microsecond' as at from months
      union select m from months
      union select percentile_disc(0.5) within group (order by observed_at) from prediction.pricing_snapshots
      order by at`
  ).map((r) => r.at);
  // The market with the most quotes, the settled one with the most quotes, and the one first observed last.
  const candles = await sql<{ market_id: string; from: string; to: string }[]>`
    with r as (
      select p.market_id, min(p.observed_at) as from, max(p.last_observed_at) + interval '1 minute' as to, count(*) as quotes,
             bool_or(m.result is not null) as settled
        from prediction.pricing_snapshots p join prediction.markets m using (market_id)
       group by p.market_id)
    select * from (
      (select market_id, "from", "to" from r order by quotes desc, market_id limit 1)
      union (select market_id, "from", "to" from r order by "from" desc, market_id limit 1)
      union (select market_id, "from", "to" from r where settled order by quotes desc, market_id limit 1)) c
    order by market_id`;
  return { costs, prices, crossSections, candles };
}

/** One answer: the result's column names, in order, and its rows. */
interface Answer {
  columns: string[];
  rows: postgres.Row[];
}

/**
 * The rows of `answer` as JSON text of the values of `columns`, in that order. The analytics
 * interface may grow (a migration may append columns to a view or a function's row type, never
 * rename, drop or reorder them), so the answers after it are read through the columns before.
 */
const rowsAs = (answer: Answer, columns: readonly string[]) => answer.rows.map((row) => JSON.stringify(columns.map((c) => row[c])));

/** Every answer the new layout must keep, by name. */
async function captureAnswers(databaseUrl: string, inputs: Inputs): Promise<Map<string, Answer>> {
  const sql = verbatimClient(databaseUrl);
  const answers = new Map<string, Answer>();
  const capture = async (name: string, query: postgres.PendingQuery<postgres.Row[]>) => {
    const result = await query;
    answers.set(name, { columns: result.columns.map((c) => c.name), rows: [...result] });
  };
  const column = <K extends string>(rows: Record<K, string>[], key: K) => sql.array(rows.map((r) => r[key]));
  try {
    await capture(
      'prediction.orderbook_levels',
      sql`select * from prediction.orderbook_levels order by market_id, snapshot_id, side, price_cents`,
    );
    await capture('analytics.orderbook_top', sql`select * from analytics.orderbook_top order by market_id, valid_from`);
    await capture(
      'analytics.orderbook_depth',
      sql`select * from analytics.orderbook_depth
           order by market_id, snapshot_id, valid_from, yes_side, level_rank, yes_price_cents, distance_from_best_cents, size_contracts,
                    cumulative_contracts, cumulative_usd, average_price_cents, book_side, book_price_cents`,
    );
    await capture(
      'analytics.cost_to_buy_yes',
      sql`select i.n, c.*
            from unnest(${column(inputs.costs, 'market_id')}::text[], ${column(inputs.costs, 'contracts')}::numeric[],
                        ${column(inputs.costs, 'at')}::timestamptz[]) with ordinality as i(market_id, contracts, at, n)
            left join lateral analytics.cost_to_buy_yes(i.market_id, i.contracts, i.at) c on true
           order by i.n`,
    );
    await capture(
      'analytics.price_as_of',
      sql`select i.n, a.*
            from unnest(${column(inputs.prices, 'market_id')}::text[], ${column(inputs.prices, 'at')}::timestamptz[])
                 with ordinality as i(market_id, at, n)
            left join lateral analytics.price_as_of(i.market_id, i.at) a on true
           order by i.n`,
    );
    await capture(
      'analytics.prices_as_of(markets, instants)',
      sql`select * from analytics.prices_as_of(${column(inputs.prices, 'market_id')}::text[], ${column(inputs.prices, 'at')}::timestamptz[])`,
    );
    await capture(
      'analytics.prices_as_of(instant)',
      sql`select i.at, a.* from unnest(${sql.array(inputs.crossSections)}::timestamptz[]) as i(at)
            cross join lateral analytics.prices_as_of(i.at) a
           order by i.at, a.market_id`,
    );
    for (const c of inputs.candles) {
      for (const interval of ['1 hour', '1 minute']) {
        await capture(
          `analytics.candles(${c.market_id}, ${interval})`,
          sql`select * from analytics.candles(${c.market_id}, ${interval}::interval, ${c.from}::timestamptz, ${c.to}::timestamptz)`,
        );
      }
    }
    await capture('analytics.price_history', sql`select * from analytics.price_history order by market_id, valid_from`);
    await capture('analytics.market_latest', sql`select * from analytics.market_latest order by market_id`);
    await capture('analytics.market_resolutions', sql`select * from analytics.market_resolutions order by market_id`);
    await capture('analytics.data_coverage', sql`select * from analytics.data_coverage order by run_id, provider, category`);
    return answers;
  } finally {
    await sql.end();
  }
}

it('keeps every row and every analytics answer of a database filled at 0012', async () => {
  const db = await createTestDatabase({ migrated: false });
  const upTo0012 = await migrationsUpTo(FIXTURE_MIGRATION_IDX);
  try {
    await migrate(db.url, { migrationsFolder: upTo0012.folder });
    await loadPlainDump(db.url, FIXTURE);
    const countsBefore = await historyRowCounts(db.sql);
    const inputSql = verbatimClient(db.url);
    const inputs = await chooseInputs(inputSql).finally(() => inputSql.end());
    const before = await captureAnswers(db.url, inputs);
    // An empty answer would stay equal whatever the migration did to the data behind it.
    for (const [name, answer] of before) expect(answer.rows.length, name).toBeGreaterThan(0);

    const { applied } = await migrate(db.url);
    expect(applied).toBeGreaterThan(0);

    expect(await historyRowCounts(db.sql)).toEqual(countsBefore);
    const after = await captureAnswers(db.url, inputs);
    expect([...after.keys()]).toEqual([...before.keys()]);
    // Soft: one run lists every answer that changed.
    for (const [name, answer] of before) {
      const now = after.get(name)!;
      expect.soft(now.columns.slice(0, answer.columns.length), `${name}: its columns`).toEqual(answer.columns);
      expect.soft(rowsAs(now, answer.columns), name).toEqual(rowsAs(answer, answer.columns));
    }
  } finally {
    await upTo0012.remove();
    await db.close();
  }
}, 60_000);
