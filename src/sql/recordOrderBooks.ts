import { hash } from 'node:crypto';
import { orderbookLevels, orderbookSnapshots } from '../schema/index.js';
import type { OrderBook } from '../domain/types.js';
import { copyField, copyLines } from './copyRows.js';
import type { ObservationCounts } from './recordPricing.js';
import type { Queryable } from './queryable.js';
import { sqlNames, type ColumnKey } from './sqlNames.js';

const { table: snapshots, col } = sqlNames(orderbookSnapshots);
const LEVELS = sqlNames(orderbookLevels);
/** The levels' COPY columns, in the order each line below writes its fields. */
const LEVEL_COLUMNS = (['marketId', 'snapshotId', 'side', 'priceCents', 'size'] satisfies ColumnKey<typeof orderbookLevels>[]).map(
  (key) => LEVELS.quoted[key],
);

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
      select i.*, l.${sql(col.snapshotId)} as latest_id, l.${sql(col.observedAt)} as latest_at,
             l.${sql(col.contentHash)} is not distinct from i.content_hash as same
      from input i
      left join lateral (
        select * from ${sql(snapshots)} s where s.${sql(col.marketId)} = i.market_id order by s.${sql(col.observedAt)} desc limit 1
      ) l on true
    ),
    inserted as (
      insert into ${sql(snapshots)} (${sql(col.marketId)}, ${sql(col.observedAt)}, ${sql(col.lastObservedAt)}, ${sql(col.yesLevels)},
        ${sql(col.noLevels)}, ${sql(col.contentHash)}, ${sql(col.isNull)})
      select market_id, observed_at, observed_at, yes_levels, no_levels, content_hash, is_null_text::boolean
      from compared where not same and (latest_at is null or latest_at < observed_at)
      returning ${sql(col.marketId)} as market_id, ${sql(col.snapshotId)} as snapshot_id
    ),
    confirmed as (
      update ${sql(snapshots)} s set ${sql(col.lastObservedAt)} = c.observed_at
      from compared c
      where c.same and s.${sql(col.marketId)} = c.market_id and s.${sql(col.snapshotId)} = c.latest_id
        and s.${sql(col.lastObservedAt)} < c.observed_at
      returning s.${sql(col.marketId)} as market_id
    )
    select market_id, snapshot_id::text, false as confirmed from inserted
    union all select market_id, null, true from confirmed`;

  const byMarket = new Map(books.map((b) => [b.marketId, b]));
  const created = rows.filter((r) => !r.confirmed && r.snapshot_id !== null);
  let levels = 0;
  // Encoded line by line rather than through per-level arrays: a book's first two fields are the same for all its levels.
  await copyLines(
    sql,
    LEVELS.quotedTable,
    LEVEL_COLUMNS,
    (function* () {
      for (const { market_id, snapshot_id } of created) {
        const book = byMarket.get(market_id)!;
        const head = `${copyField(market_id)}\t${copyField(snapshot_id)}\t`;
        for (const [side, sideLevels] of [
          ['yes', book.yes],
          ['no', book.no],
        ] as const) {
          for (const l of sideLevels) {
            levels++;
            yield `${head}${side}\t${copyField(l.priceCents)}\t${copyField(l.size)}\n`;
          }
        }
      }
    })(),
  );
  return { inserted: created.length, confirmed: rows.length - created.length, levels };
}

/** Identifies a book's content: equal books, equal hashes. */
export function contentHash(book: OrderBook): string {
  const side = (levels: OrderBook['yes']) => levels.map((l) => `${l.priceCents}:${l.size}`).join(',');
  return hash('sha256', `${book.isNull ? 'null' : 'book'}|${side(book.yes)}|${side(book.no)}`, 'base64url');
}
