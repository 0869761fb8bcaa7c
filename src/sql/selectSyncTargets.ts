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
 * Open markets in order-book priority: highest traded volume first (latest price snapshot), then
 * nearest close. `limit` null means all of them.
 */
export async function selectOrderBookTargets(sql: Queryable, providers: readonly string[], limit: number | null): Promise<string[]> {
  const rows = await sql<{ marketId: string }[]>`
    select m.market_id as "marketId" from prediction.markets m
    left join lateral (
      select p.volume from prediction.pricing_snapshots p where p.market_id = m.market_id order by p.observed_at desc limit 1
    ) p on true
    where m.status = 'open' and m.provider = any(${providers as string[]}::text[])
    order by p.volume desc nulls last, m.close_time asc, m.market_id
    limit ${limit ?? null}`;
  return rows.map((r) => r.marketId);
}
