import type { Queryable } from './queryable.js';

export interface EventTarget {
  eventId: string;
  provider: string;
}

export interface MarketTarget {
  marketId: string;
  eventId: string;
  provider: string;
}

/**
 * Events of these providers not seen since `seenBefore` that may still change: unresolved
 * (no winner) or still active. Events leave GET /events when they stop being active, so their
 * winner and final flags come only from their detail.
 */
export async function selectStaleEvents(sql: Queryable, providers: readonly string[], seenBefore: Date): Promise<EventTarget[]> {
  return sql<EventTarget[]>`
    select event_id as "eventId", provider from prediction.events
    where provider = any(${providers as string[]}::text[]) and last_seen_at < ${seenBefore}::timestamptz
      and (winner is null or is_active is not false)
    order by event_id`;
}

/**
 * Markets of these providers not seen since `seenBefore` that are still unsettled (open, or no
 * result, or no settlement time): their close, result and settlement must still be captured.
 */
export async function selectStaleMarkets(sql: Queryable, providers: readonly string[], seenBefore: Date): Promise<MarketTarget[]> {
  return sql<MarketTarget[]>`
    select market_id as "marketId", event_id as "eventId", provider from prediction.markets
    where provider = any(${providers as string[]}::text[]) and last_seen_at < ${seenBefore}::timestamptz
      and (status = 'open' or result is null or settlement_time is null)
    order by market_id`;
}

/** Markets whose records so far carried no metadata and whose detail was never fetched. */
export async function selectMarketsLackingDetail(sql: Queryable, providers: readonly string[]): Promise<MarketTarget[]> {
  return sql<MarketTarget[]>`
    select market_id as "marketId", event_id as "eventId", provider from prediction.markets
    where provider = any(${providers as string[]}::text[]) and detail_fetched_at is null
      and title is null and subtitle is null and description is null and rules_primary is null and is_tradable is null
    order by market_id`;
}

/**
 * Open markets in order-book priority: first those whose book was never fetched or is older than
 * `maxAgeSec` (oldest first), so every open market is visited within that period; then by traded
 * volume (latest price snapshot), then nearest close. `limit` null means all of them.
 */
export async function selectOrderBookTargets(
  sql: Queryable,
  providers: readonly string[],
  options: { limit: number | null; maxAgeSec: number; now: Date },
): Promise<string[]> {
  const rows = await sql<{ marketId: string }[]>`
    select m.market_id as "marketId" from prediction.markets m
    left join lateral (
      select p.volume from prediction.pricing_snapshots p where p.market_id = m.market_id order by p.observed_at desc limit 1
    ) p on true
    left join lateral (
      select b.last_observed_at from prediction.orderbook_snapshots b where b.market_id = m.market_id order by b.observed_at desc limit 1
    ) b on true
    where m.status = 'open' and m.provider = any(${providers as string[]}::text[])
    order by coalesce(b.last_observed_at < ${options.now}::timestamptz - make_interval(secs => ${options.maxAgeSec}), true) desc,
             case when b.last_observed_at < ${options.now}::timestamptz - make_interval(secs => ${options.maxAgeSec})
                  then b.last_observed_at end asc nulls first,
             p.volume desc nulls last, m.close_time asc, m.market_id
    limit ${options.limit}`;
  return rows.map((r) => r.marketId);
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
  return sql<MarketTarget[]>`
    select market_id as "marketId", event_id as "eventId", provider from prediction.markets
    where provider = any(${providers as string[]}::text[]) and status = 'open'
      and close_time between ${options.now}::timestamptz - make_interval(secs => ${options.behindSec})
                         and ${options.now}::timestamptz + make_interval(secs => ${options.aheadSec})
    order by close_time, market_id`;
}

/** Start of the latest crawl that completed: what it did not see has left the listings. */
export async function lastCompleteCrawlStart(sql: Queryable, jobs: readonly string[]): Promise<Date | null> {
  const [row] = await sql<{ at: Date | null }[]>`
    select max(started_at) as at from prediction.ingest_runs where job = any(${jobs as string[]}::text[]) and status = 'succeeded'`;
  return row?.at ?? null;
}
