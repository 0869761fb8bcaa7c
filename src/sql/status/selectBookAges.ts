import { markets, orderbookSnapshots } from '../../schema/index.js';
import type { Queryable } from '../core/queryable.js';
import { sqlNames } from '../core/sqlNames.js';

const M = sqlNames(markets);
const B = sqlNames(orderbookSnapshots);

export interface BookAges {
  /** Markets whose current status is `open`. */
  openMarkets: number;
  /** Of those, markets with no order book stored yet. */
  withoutBook: number;
  /**
   * Age at `at` of what is known of each open market's book: since its latest snapshot was last
   * confirmed or, for a market with no book yet, since the market was first seen (it has waited
   * that long for one). Null when no market is open. A time after `at` (a clock step) reads 0.
   */
  p50AgeSec: number | null;
  p90AgeSec: number | null;
  maxAgeSec: number | null;
}

/** The age distribution of the open markets' order books at `at`. */
export async function selectBookAges(sql: Queryable, at: Date): Promise<BookAges> {
  const m = M.col;
  const b = B.col;
  // The latest snapshot of a market is one backward probe of its (market_id, observed_at) index.
  const [row] = await sql<BookAges[]>`
    with ages as (
      select greatest(0, extract(epoch from ${at}::timestamptz - coalesce(book.last_observed_at, mk.${sql(m.firstSeenAt)})))::float8 as age_sec,
        book.last_observed_at is null as without_book
      from ${sql(M.table)} mk
      left join lateral (
        select s.${sql(b.lastObservedAt)} as last_observed_at from ${sql(B.table)} s
        where s.${sql(b.marketId)} = mk.${sql(m.marketId)} order by s.${sql(b.observedAt)} desc limit 1
      ) book on true
      where mk.${sql(m.status)} = 'open'
    )
    select count(*)::int as "openMarkets", (count(*) filter (where without_book))::int as "withoutBook",
      percentile_cont(0.5) within group (order by age_sec) as "p50AgeSec",
      percentile_cont(0.9) within group (order by age_sec) as "p90AgeSec",
      max(age_sec) as "maxAgeSec"
    from ages`;
  return row!;
}
