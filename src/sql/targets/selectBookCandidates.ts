import { bookFetches, markets, orderbookSnapshots, pricingSnapshots, tradePolls, trades } from '../../schema/index.js';
import type { Queryable } from '../core/queryable.js';
import { sqlNames } from '../core/sqlNames.js';

const M = sqlNames(markets);
const P = sqlNames(pricingSnapshots);
const B = sqlNames(orderbookSnapshots);
const F = sqlNames(bookFetches);
const T = sqlNames(trades);
const TP = sqlNames(tradePolls);

/**
 * Span over which a market's fills in the trade feed give its trade rate: an hour holds enough
 * fills of a market that trades every few seconds for a count within a few per cent, and follows
 * a change of its activity within the hour.
 */
export const TRADE_RATE_WINDOW_SEC = 3600;

/** An open market with what the sweep's schedule needs of it (sync/bookSchedule.ts's BookCandidate). */
export interface BookCandidateRow {
  marketId: string;
  lastFetchedMs: number | null;
  listedMovedAtMs: number | null;
  lastTradedMs: number | null;
  volumePerSec: number | null;
  closeTimeMs: number | null;
  changedFetches: number;
  unchangedFetches: number;
  changedIntervalSec: number;
  changedIntervalSqSec: number;
  unchangedIntervalSec: number;
  signalledFetches: number;
  signalledChangedFetches: number;
  signalledIntervalSec: number;
  signalledLagSec: number;
  tradesPerSec: number;
}

/**
 * Every open market of these providers, in market id order, with its fetch evidence
 * (prediction.book_fetches), when its book was last fetched (a market fetched before that table
 * existed: when its latest snapshot was last confirmed), when the crawl saw its listed prices
 * change since, if it did (a pricing snapshot observed after that fetch: prices are stored
 * change-only), the time of its latest fill in the trade feed, its fills a second over the last
 * TRADE_RATE_WINDOW_SEC (over the part of it the feed's polls saw whole: prediction.trade_polls; 0
 * when none did), and its traded volume per second since it opened (at least a minute). Three
 * index probes a market, and one pass over the window's trades. With `marketIds`, only those markets.
 */
export async function selectBookCandidates(
  sql: Queryable,
  providers: readonly string[],
  now: Date,
  marketIds?: readonly string[],
): Promise<BookCandidateRow[]> {
  const [m, p, b, f, t, tp] = [M.col, P.col, B.col, F.col, T.col, TP.col];
  const windowFrom = sql`${now}::timestamptz - make_interval(secs => ${TRADE_RATE_WINDOW_SEC})`;
  const only = marketIds === undefined ? sql`` : sql`and m.${sql(m.marketId)} = any(${marketIds as string[]}::text[])`;
  return sql<BookCandidateRow[]>`
    select m.${sql(m.marketId)} as "marketId",
      (extract(epoch from coalesce(f.${sql(f.lastFetchedAt)}, b.last_observed_at)) * 1000)::float8 as "lastFetchedMs",
      case when p.observed_at > coalesce(f.${sql(f.lastFetchedAt)}, b.last_observed_at)
        then (extract(epoch from p.observed_at) * 1000)::float8 end as "listedMovedAtMs",
      (extract(epoch from t.traded_at) * 1000)::float8 as "lastTradedMs",
      (p.volume / greatest(60, extract(epoch from ${now}::timestamptz - coalesce(m.${sql(m.openTime)}, m.${sql(m.firstSeenAt)}))))::float8
        as "volumePerSec",
      (extract(epoch from m.${sql(m.closeTime)}) * 1000)::float8 as "closeTimeMs",
      coalesce(f.${sql(f.changedFetches)}, 0) as "changedFetches", coalesce(f.${sql(f.unchangedFetches)}, 0) as "unchangedFetches",
      coalesce(f.${sql(f.changedIntervalSec)}, 0) as "changedIntervalSec",
      coalesce(f.${sql(f.changedIntervalSqSec)}, 0) as "changedIntervalSqSec",
      coalesce(f.${sql(f.unchangedIntervalSec)}, 0) as "unchangedIntervalSec",
      coalesce(f.${sql(f.signalledFetches)}, 0) as "signalledFetches",
      coalesce(f.${sql(f.signalledChangedFetches)}, 0) as "signalledChangedFetches",
      coalesce(f.${sql(f.signalledIntervalSec)}, 0) as "signalledIntervalSec",
      coalesce(f.${sql(f.signalledLagSec)}, 0) as "signalledLagSec",
      coalesce(tn.n / nullif(covered.sec, 0), 0)::float8 as "tradesPerSec"
    from ${sql(M.table)} m
    left join ${sql(F.table)} f on f.${sql(f.marketId)} = m.${sql(m.marketId)}
    cross join (
      select coalesce(sum(extract(epoch from least(tp.${sql(tp.coversTo)}, ${now}::timestamptz) - greatest(tp.${sql(tp.coversFrom)}, ${windowFrom}))), 0)::float8 as sec
      from ${sql(TP.table)} tp where tp.${sql(tp.coversTo)} > ${windowFrom} and tp.${sql(tp.coversFrom)} < ${now}::timestamptz
    ) covered
    left join (
      select t.${sql(t.marketId)} as market_id, count(*)::float8 as n from ${sql(T.table)} t
      where t.${sql(t.tradedAt)} > ${windowFrom} and t.${sql(t.tradedAt)} <= ${now}::timestamptz group by 1
    ) tn on tn.market_id = m.${sql(m.marketId)}
    left join lateral (
      select p.${sql(p.observedAt)} as observed_at, p.${sql(p.volume)} as volume from ${sql(P.table)} p
      where p.${sql(p.marketId)} = m.${sql(m.marketId)} order by p.${sql(p.observedAt)} desc limit 1
    ) p on true
    left join lateral (
      select b.${sql(b.lastObservedAt)} as last_observed_at from ${sql(B.table)} b
      where b.${sql(b.marketId)} = m.${sql(m.marketId)} and f.${sql(f.marketId)} is null
      order by b.${sql(b.observedAt)} desc limit 1
    ) b on true
    left join lateral (
      select t.${sql(t.tradedAt)} as traded_at from ${sql(T.table)} t
      where t.${sql(t.marketId)} = m.${sql(m.marketId)}
      order by t.${sql(t.tradedAt)} desc limit 1
    ) t on true
    where m.${sql(m.status)} = 'open' and m.${sql(m.provider)} = any(${providers as string[]}::text[]) ${only}
    order by m.${sql(m.marketId)}`;
}
