import { hash } from 'node:crypto';
import { orderbookSnapshots } from '../schema/index.js';
import type { OrderBook } from '../domain/types.js';
import type { ObservationCounts } from './recordPricing.js';
import type { Queryable } from './queryable.js';
import { sqlNames } from './sqlNames.js';

const { table: snapshots, col } = sqlNames(orderbookSnapshots);

export interface OrderBookCounts extends ObservationCounts {
  /** Levels stored with the new snapshots. */
  levels: number;
}

/** A book and when it was received. */
export interface ObservedOrderBook {
  book: OrderBook;
  observedAt: Date;
}

/**
 * Change-only order-book history: a book identical to the market's latest snapshot (same content
 * hash) only moves that snapshot's last_observed_at; a different one becomes a new snapshot row
 * holding its levels, encoded by prediction.encode_levels (0013). One statement for the batch:
 * every book's levels travel in two flat arrays (YES side then NO side, best first, as the row
 * keeps them), each book slicing out its own. Each book keeps its own observation time, so a batch
 * may gather several fetches. Market ids must be unique within the batch.
 */
export async function recordOrderBooks(sql: Queryable, observed: readonly ObservedOrderBook[]): Promise<OrderBookCounts> {
  if (observed.length === 0) return { inserted: 0, confirmed: 0, levels: 0 };
  const books = observed.map((o) => o.book);
  const prices: string[] = [];
  const sizes: string[] = [];
  const firstLevel = books.map((b) => {
    const first = prices.length + 1;
    for (const level of [...b.yes, ...b.no]) {
      prices.push(level.priceCents);
      sizes.push(level.size);
    }
    return first;
  });
  const rows = await sql<{ inserted: number; confirmed: number; levels: number }[]>`
    with input as (
      select * from unnest(${books.map((b) => b.marketId)}::text[], ${books.map(contentHash)}::text[],
                           ${books.map((b) => b.yes.length)}::int[], ${books.map((b) => b.no.length)}::int[],
                           ${books.map((b) => String(b.isNull))}::text[],
                           ${observed.map((o) => o.observedAt.toISOString())}::timestamptz[], ${firstLevel}::int[])
        as t(market_id, content_hash, yes_levels, no_levels, is_null_text, observed_at, first_level)
    ),
    -- Materialized: the arrays are cast once, not once per book that slices them.
    levels as materialized (select ${prices}::numeric[] as prices, ${sizes}::numeric[] as sizes),
    compared as (
      select i.*, l.${sql(col.observedAt)} as latest_at,
             l.${sql(col.contentHash)} is not distinct from i.content_hash as same
      from input i
      left join lateral (
        select * from ${sql(snapshots)} s where s.${sql(col.marketId)} = i.market_id order by s.${sql(col.observedAt)} desc limit 1
      ) l on true
    ),
    inserted as (
      insert into ${sql(snapshots)} (${sql(col.marketId)}, ${sql(col.observedAt)}, ${sql(col.lastObservedAt)}, ${sql(col.yesLevels)},
        ${sql(col.noLevels)}, ${sql(col.contentHash)}, ${sql(col.isNull)}, ${sql(col.priceScale)}, ${sql(col.sizeScale)},
        ${sql(col.priceUnits)}, ${sql(col.sizeUnits)}, ${sql(col.exactPriceCents)}, ${sql(col.exactSizes)})
      select c.market_id, c.observed_at, c.observed_at, c.yes_levels, c.no_levels, c.content_hash, c.is_null_text::boolean,
             e.price_scale, e.size_scale, e.price_units, e.size_units, e.exact_price_cents, e.exact_sizes
      from compared c
      cross join levels v
      cross join lateral prediction.encode_levels(
        v.prices[c.first_level : c.first_level + c.yes_levels + c.no_levels - 1],
        v.sizes[c.first_level : c.first_level + c.yes_levels + c.no_levels - 1]) e
      where not c.same and (c.latest_at is null or c.latest_at < c.observed_at)
      returning ${sql(col.yesLevels)} + ${sql(col.noLevels)} as levels
    ),
    confirmed as (
      update ${sql(snapshots)} s set ${sql(col.lastObservedAt)} = c.observed_at
      from compared c
      where c.same and s.${sql(col.marketId)} = c.market_id and s.${sql(col.observedAt)} = c.latest_at
        and s.${sql(col.lastObservedAt)} < c.observed_at
      returning 1
    )
    select (select count(*) from inserted)::int as inserted, (select count(*) from confirmed)::int as confirmed,
           (select coalesce(sum(levels), 0) from inserted)::int as levels`;
  return rows[0] ?? { inserted: 0, confirmed: 0, levels: 0 };
}

/** Identifies a book's content: equal books, equal hashes. */
export function contentHash(book: OrderBook): string {
  const side = (levels: OrderBook['yes']) => levels.map((l) => `${l.priceCents}:${l.size}`).join(',');
  return hash('sha256', `${book.isNull ? 'null' : 'book'}|${side(book.yes)}|${side(book.no)}`, 'base64url');
}
