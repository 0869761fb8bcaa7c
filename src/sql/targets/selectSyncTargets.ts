import { events, ingestRuns, markets, orderbookSnapshots, pricingSnapshots } from '../../schema/index.js';
import type { Queryable } from '../core/queryable.js';
import { type RowOf, selection, sqlNames } from '../core/sqlNames.js';

const E = sqlNames(events);
const M = sqlNames(markets);
const P = sqlNames(pricingSnapshots);
const B = sqlNames(orderbookSnapshots);
const R = sqlNames(ingestRuns);

const EVENT_TARGET = selection(events, ['eventId', 'provider']);
const MARKET_TARGET = selection(markets, ['marketId', 'eventId', 'provider']);
const ORDER_BOOK_TARGET = selection(markets, ['marketId'], 'm');

export type EventTarget = RowOf<typeof EVENT_TARGET>;
export type MarketTarget = RowOf<typeof MARKET_TARGET>;

/**
 * Events of these providers not seen since `seenBefore` that may still change: still active, or
 * unresolved (no winner) with a market still unsettled or none stored. Events leave GET /events
 * when they stop being active, so their winner and final flags come only from their detail. An
 * inactive event whose every market is settled is final even without a winner (today's shape
 * sends none): fetching it again would find nothing new, every cycle, for ever.
 */
export async function selectStaleEvents(sql: Queryable, providers: readonly string[], seenBefore: Date): Promise<EventTarget[]> {
  const c = E.col;
  const m = M.col;
  const unsettled = sql`(mk.${sql(m.status)} = 'open' or mk.${sql(m.result)} is null or mk.${sql(m.settlementTime)} is null)`;
  return sql<EventTarget[]>`
    select ${sql.unsafe(EVENT_TARGET.text)} from ${sql(E.table)} e
    where e.${sql(c.provider)} = any(${providers as string[]}::text[]) and e.${sql(c.lastSeenAt)} < ${seenBefore}::timestamptz
      and (e.${sql(c.isActive)} is not false
        or (e.${sql(c.winner)} is null
          -- Uncorrelated: a Citus cluster joins markets (distributed by market_id) to events on
          -- event_id only through a subquery it can compute on its own.
          and (e.${sql(c.eventId)} in (select mk.${sql(m.eventId)} from ${sql(M.table)} mk where ${unsettled})
            or e.${sql(c.eventId)} not in (select mk.${sql(m.eventId)} from ${sql(M.table)} mk))))
    order by e.${sql(c.eventId)}`;
}

/**
 * Markets of these providers not seen since `seenBefore` that are still unsettled (open, or no
 * result, or no settlement time): their close, result and settlement must still be captured.
 */
export async function selectStaleMarkets(sql: Queryable, providers: readonly string[], seenBefore: Date): Promise<MarketTarget[]> {
  const c = M.col;
  return sql<MarketTarget[]>`
    select ${sql.unsafe(MARKET_TARGET.text)} from ${sql(M.table)}
    where ${sql(c.provider)} = any(${providers as string[]}::text[]) and ${sql(c.lastSeenAt)} < ${seenBefore}::timestamptz
      and (${sql(c.status)} = 'open' or ${sql(c.result)} is null or ${sql(c.settlementTime)} is null)
    order by ${sql(c.marketId)}`;
}

/** Markets whose records so far carried no metadata and whose detail was never fetched. */
export async function selectMarketsLackingDetail(sql: Queryable, providers: readonly string[]): Promise<MarketTarget[]> {
  const c = M.col;
  return sql<MarketTarget[]>`
    select ${sql.unsafe(MARKET_TARGET.text)} from ${sql(M.table)}
    where ${sql(c.provider)} = any(${providers as string[]}::text[]) and ${sql(c.detailFetchedAt)} is null
      and ${sql(c.title)} is null and ${sql(c.subtitle)} is null and ${sql(c.description)} is null
      and ${sql(c.rulesPrimary)} is null and ${sql(c.isTradable)} is null
    order by ${sql(c.marketId)}`;
}

/** An open market in order-book priority, and whether its book is due (never fetched, or older than the max age). */
export type OrderBookTarget = RowOf<typeof ORDER_BOOK_TARGET> & { due: boolean };

/**
 * Open markets in order-book priority: first those whose book is due, never fetched or older than
 * `maxAgeSec` (oldest first), so every open market is visited within that period; then by traded
 * volume (latest price snapshot), then nearest close. `limit` null means all of them. The sweep
 * fetches in this order and `plan` sizes it from the same rows.
 */
export async function selectOrderBookTargets(
  sql: Queryable,
  providers: readonly string[],
  options: { limit: number | null; maxAgeSec: number; now: Date },
): Promise<OrderBookTarget[]> {
  const [m, p, b] = [M.col, P.col, B.col];
  const olderThanMaxAge = sql`b.last_observed_at < ${options.now}::timestamptz - make_interval(secs => ${options.maxAgeSec})`;
  return sql<OrderBookTarget[]>`
    select ${sql.unsafe(ORDER_BOOK_TARGET.text)}, coalesce(${olderThanMaxAge}, true) as due from ${sql(M.table)} m
    left join lateral (
      select p.${sql(p.volume)} as volume from ${sql(P.table)} p
      where p.${sql(p.marketId)} = m.${sql(m.marketId)} order by p.${sql(p.observedAt)} desc limit 1
    ) p on true
    left join lateral (
      select b.${sql(b.lastObservedAt)} as last_observed_at from ${sql(B.table)} b
      where b.${sql(b.marketId)} = m.${sql(m.marketId)} order by b.${sql(b.observedAt)} desc limit 1
    ) b on true
    where m.${sql(m.status)} = 'open' and m.${sql(m.provider)} = any(${providers as string[]}::text[])
    order by due desc,
             case when ${olderThanMaxAge} then b.last_observed_at end asc nulls first,
             p.volume desc nulls last, m.${sql(m.closeTime)} asc, m.${sql(m.marketId)}
    limit ${options.limit}`;
}

/**
 * Open markets around their close time (closing within `aheadSec`, or closed up to `behindSec` ago
 * but still open here): refreshed between crawls so a close is captured promptly.
 */
export async function selectClosingMarkets(
  sql: Queryable,
  providers: readonly string[],
  options: { now: Date; aheadSec: number; behindSec: number },
): Promise<MarketTarget[]> {
  const c = M.col;
  return sql<MarketTarget[]>`
    select ${sql.unsafe(MARKET_TARGET.text)} from ${sql(M.table)}
    where ${sql(c.provider)} = any(${providers as string[]}::text[]) and ${sql(c.status)} = 'open'
      and ${sql(c.closeTime)} between ${options.now}::timestamptz - make_interval(secs => ${options.behindSec})
                              and ${options.now}::timestamptz + make_interval(secs => ${options.aheadSec})
    order by ${sql(c.closeTime)}, ${sql(c.marketId)}`;
}

/** Start of the latest crawl that completed: what it did not see has left the listings. */
export async function lastCompleteCrawlStart(sql: Queryable, jobs: readonly string[]): Promise<Date | null> {
  const c = R.col;
  const [row] = await sql<{ at: Date | null }[]>`
    select max(${sql(c.startedAt)}) as at from ${sql(R.table)}
    where ${sql(c.job)} = any(${jobs as string[]}::text[]) and ${sql(c.status)} = 'succeeded'`;
  return row?.at ?? null;
}
