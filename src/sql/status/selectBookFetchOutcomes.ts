import { bookFetches, markets } from '../../schema/index.js';
import type { Queryable } from '../core/queryable.js';
import { sqlNames } from '../core/sqlNames.js';

const M = sqlNames(markets);
const F = sqlNames(bookFetches);

export interface BookFetchOutcomes {
  /** Book fetches after a market's first (prediction.book_fetches), of every market, signalled or not. */
  comparedFetches: number;
  /** Of those, the share that found the book changed; null without any. */
  changedShare: number | null;
  /** Open markets in the most active tenth (by changes found per second fetched), of those with fetch evidence. */
  activeDecileMarkets: number;
  /** Age at `at` of their latest book fetch: median and max; null without such markets. */
  activeDecileP50AgeSec: number | null;
  activeDecileMaxAgeSec: number | null;
}

/**
 * What the order-book fetches found: the share of fetches that found a change, and how fresh the
 * books of the most active tenth of the open markets are (ranked by the changes their fetches
 * found per second between fetches).
 */
export async function selectBookFetchOutcomes(sql: Queryable, at: Date): Promise<BookFetchOutcomes> {
  const [m, f] = [M.col, F.col];
  const exposedSec = sql`(f.${sql(f.changedIntervalSec)} + f.${sql(f.unchangedIntervalSec)} + f.${sql(f.signalledIntervalSec)})`;
  const [row] = await sql<BookFetchOutcomes[]>`
    with totals as (
      select coalesce(sum(${sql(f.changedFetches)} + ${sql(f.unchangedFetches)} + ${sql(f.signalledFetches)}), 0)::float8 as compared,
        coalesce(sum(${sql(f.changedFetches)} + ${sql(f.signalledChangedFetches)}), 0)::float8 as changed
      from ${sql(F.table)}
    ),
    ranked as (
      select greatest(0, extract(epoch from ${at}::timestamptz - f.${sql(f.lastFetchedAt)}))::float8 as age_sec,
        ntile(10) over (order by (f.${sql(f.changedFetches)} + f.${sql(f.signalledChangedFetches)}) / ${exposedSec} desc) as decile
      from ${sql(F.table)} f join ${sql(M.table)} mk on mk.${sql(m.marketId)} = f.${sql(f.marketId)}
      where mk.${sql(m.status)} = 'open' and ${exposedSec} > 0
    ),
    top as (
      select count(*)::int as n, percentile_cont(0.5) within group (order by age_sec) as p50, max(age_sec) as mx from ranked where decile = 1
    )
    select totals.compared::int as "comparedFetches", (totals.changed / nullif(totals.compared, 0))::float8 as "changedShare",
      top.n as "activeDecileMarkets", top.p50::float8 as "activeDecileP50AgeSec", top.mx::float8 as "activeDecileMaxAgeSec"
    from totals, top`;
  return row!;
}
