import { hash } from 'node:crypto';
import type { OrderBook } from '../domain/types.js';
import { copyField, copyLines } from './copyRows.js';
import type { ObservationCounts } from './recordPricing.js';
import type { Queryable } from './queryable.js';

export interface OrderBookCounts extends ObservationCounts {
  /** Level rows written for the new snapshots. */
  levels: number;
}

/** A book and when it was received. */
export interface ObservedOrderBook {
  book: OrderBook;
  observedAt: Date;
}

/**
 * Change-only order-book history: a book identical to the market's latest snapshot (same content
 * hash) only moves that snapshot's last_observed_at; a different one becomes a new snapshot whose
 * levels are appended with COPY (levels are never updated, so no ON CONFLICT is needed). Each book
 * keeps its own observation time, so a batch may gather several fetches. Market ids must be unique
 * within the batch.
 */
export async function recordOrderBooks(sql: Queryable, observed: readonly ObservedOrderBook[]): Promise<OrderBookCounts> {
  if (observed.length === 0) return { inserted: 0, confirmed: 0, levels: 0 };
  const books = observed.map((o) => o.book);
  const rows = await sql<{ market_id: string; snapshot_id: string | null; confirmed: boolean }[]>`
    with input as (
      select * from unnest(${books.map((b) => b.marketId)}::text[], ${books.map(contentHash)}::text[],
                           ${books.map((b) => b.yes.length)}::int[], ${books.map((b) => b.no.length)}::int[],
                           ${books.map((b) => String(b.isNull))}::text[],
                           ${observed.map((o) => o.observedAt.toISOString())}::timestamptz[])
        as t(market_id, content_hash, yes_levels, no_levels, is_null_text, observed_at)
    ),
    compared as (
      select i.*, l.snapshot_id as latest_id, l.observed_at as latest_at,
             l.content_hash is not distinct from i.content_hash as same
      from input i
      left join lateral (
        select * from prediction.orderbook_snapshots s where s.market_id = i.market_id order by s.observed_at desc limit 1
      ) l on true
    ),
    inserted as (
      insert into prediction.orderbook_snapshots (market_id, observed_at, last_observed_at, yes_levels, no_levels, content_hash, is_null)
      select market_id, observed_at, observed_at, yes_levels, no_levels, content_hash, is_null_text::boolean
      from compared where not same and (latest_at is null or latest_at < observed_at)
      returning market_id, snapshot_id
    ),
    confirmed as (
      update prediction.orderbook_snapshots s set last_observed_at = c.observed_at
      from compared c
      where c.same and s.market_id = c.market_id and s.snapshot_id = c.latest_id and s.last_observed_at < c.observed_at
      returning s.market_id
    )
    select market_id, snapshot_id::text, false as confirmed from inserted
    union all select market_id, null, true from confirmed`;

  const byMarket = new Map(books.map((b) => [b.marketId, b]));
  const created = rows.filter((r) => !r.confirmed && r.snapshot_id !== null);
  let levels = 0;
  // Encoded line by line rather than through per-level arrays: a book's first two fields are the same for all its levels.
  await copyLines(sql, 'prediction.orderbook_levels', ['market_id', 'snapshot_id', 'side', 'price_cents', 'size'], (function* () {
    for (const { market_id, snapshot_id } of created) {
      const book = byMarket.get(market_id)!;
      const head = `${copyField(market_id)}\t${copyField(snapshot_id)}\t`;
      for (const l of book.yes) (levels++, yield `${head}yes\t${copyField(l.priceCents)}\t${copyField(l.size)}\n`);
      for (const l of book.no) (levels++, yield `${head}no\t${copyField(l.priceCents)}\t${copyField(l.size)}\n`);
    }
  })());
  return { inserted: created.length, confirmed: rows.length - created.length, levels };
}

/** Identifies a book's content: equal books, equal hashes. */
export function contentHash(book: OrderBook): string {
  const side = (levels: OrderBook['yes']) => levels.map((l) => `${l.priceCents}:${l.size}`).join(',');
  return hash('sha256', `${book.isNull ? 'null' : 'book'}|${side(book.yes)}|${side(book.no)}`, 'base64url');
}
