import { hash } from 'node:crypto';
import { setImmediate } from 'node:timers/promises';

import type { OrderBook } from '../../domain/types.js';
import { bookFetches, markets, orderbookSnapshots } from '../../schema/index.js';
import { copyField, copyLines } from '../core/copyRows.js';
import { onCitus } from '../core/onCitus.js';
import type { Queryable } from '../core/queryable.js';
import { type ColumnKey, sqlNames } from '../core/sqlNames.js';
import type { ObservationCounts } from './recordPricing.js';
import { storedLevels } from './storedLevels.js';

const { table: snapshots, quotedTable, quoted, col } = sqlNames(orderbookSnapshots);
const { table: marketsTable, col: marketCol } = sqlNames(markets);
const { table: fetchesTable, col: fetchCol } = sqlNames(bookFetches);
/** The COPY columns of a new snapshot, in the order snapshotLine writes its fields (snapshot_id is its default). */
export const SNAPSHOT_COLUMNS = (
  [
    'marketId',
    'observedAt',
    'lastObservedAt',
    'yesLevels',
    'noLevels',
    'contentHash',
    'isNull',
    'priceScale',
    'sizeScale',
    'priceUnits',
    'sizeUnits',
    'exactPriceCents',
    'exactSizes',
  ] satisfies ColumnKey<typeof orderbookSnapshots>[]
).map((key) => quoted[key]);

/** Books hashed between two turns of the event loop (in which postgres.js sends and reads). */
const BOOKS_PER_TURN = 100;

export interface OrderBookCounts extends ObservationCounts {
  /** Levels stored with the new snapshots. */
  levels: number;
  /** Positions (from 1, ascending) of the books that became new snapshots. */
  changed: readonly number[];
}

/** A book and when it was received. */
export interface ObservedOrderBook {
  book: OrderBook;
  observedAt: Date;
  /**
   * When the change signal that brought the fetch forward was told (a fill's time, the crawl's
   * observation of a listed move), ms; absent for a blind fetch. countFetches counts such a fetch
   * apart, with its lag behind the signal.
   */
  signalledAtMs?: number | undefined;
}

/** A book, when it was received, and its content hash (contentHash). */
export interface HashedOrderBook extends ObservedOrderBook {
  contentHash: string;
}

/**
 * The books with their content hashes, computed in turns of the event loop (in which postgres.js
 * sends and reads what was queued before): hashing needs no database, so a writer can hash the
 * next batch while the database still works on the one before (OrderBookWriter).
 */
export async function hashOrderBooks(observed: readonly ObservedOrderBook[]): Promise<HashedOrderBook[]> {
  const hashed: HashedOrderBook[] = [];
  for (const o of observed) {
    if (hashed.length % BOOKS_PER_TURN === 0) await setImmediate();
    hashed.push({ ...o, contentHash: contentHash(o.book) });
  }
  return hashed;
}

/**
 * Change-only order-book history: a book identical to the market's latest snapshot (same content
 * hash) only moves that snapshot's last_observed_at; a different one becomes a new snapshot row
 * holding its levels (storedLevels). Each book also counts as a fetch of its market in
 * prediction.book_fetches, changed when it became a new snapshot (countFetches). Two statements:
 * one compares the batch with the latest snapshots, confirms the unchanged books and counts the
 * fetches, a COPY then writes the new rows, so that a book's
 * levels travel once, as the row stores them, encoded by the client as the COPY streams. Only the
 * new books are encoded: most books of a sweep are unchanged, and encoding them ahead while the
 * database compared cost a 1,000-book call of unchanged books ~7 ms of the client's CPU for
 * nothing (bench/levels.ts). Each book keeps its own observation time, so a batch may gather
 * several fetches. Market ids must be unique within the batch; run it in the write transaction
 * (the comparison holds only while no one else writes).
 */
export async function recordOrderBooks(sql: Queryable, observed: readonly HashedOrderBook[]): Promise<OrderBookCounts> {
  if (observed.length === 0) return { inserted: 0, confirmed: 0, levels: 0, changed: [] };
  // The books of one fetch share their Date: each time is formatted once.
  const isoOf = new Map<Date, string>();
  const times = observed.map(({ observedAt }) => isoOf.get(observedAt) ?? isoOf.set(observedAt, observedAt.toISOString()).get(observedAt)!);
  const [answer] = await compareWithLatest(sql, observed, times);
  const { changed, confirmed } = answer!;
  let levels = 0;
  await copyLines(
    sql,
    quotedTable,
    SNAPSHOT_COLUMNS,
    (function* () {
      for (const position of changed) {
        const i = position - 1;
        const { book, contentHash: bookHash } = observed[i]!;
        levels += book.yes.length + book.no.length;
        yield snapshotLine(book, bookHash, times[i]!);
      }
    })(),
  );
  return { inserted: changed.length, confirmed, levels, changed };
}

/**
 * One statement: compares each book with its market's latest snapshot, moves the last_observed_at
 * of the unchanged ones (a changed book observed before the latest snapshot's last observation
 * arrived late and is ignored), counts each fetch's outcome in its market's book_fetches row
 * (countFetches), and answers in one row: the positions (from 1, ascending) of the books that are
 * new, and how many were confirmed. Hashes (base64url) and ISO times hold no comma, so each list
 * travels as one comma-joined text: as arrays, postgres.js escaped them element by element, which
 * with a row per new book took ~4 ms of the client's CPU a 1,000-book call (bench/levels.ts).
 */
async function compareWithLatest(sql: Queryable, observed: readonly HashedOrderBook[], times: readonly string[]) {
  const ids = observed.map((o) => o.book.marketId);
  // An empty element is a blind fetch's: no signal time (string_to_array's null string).
  const signalTimes = observed.map((o) => (o.signalledAtMs === undefined ? '' : new Date(o.signalledAtMs).toISOString()));
  const latestOf = (m: string) =>
    sql`select * from ${sql(snapshots)} s where s.${sql(col.marketId)} = ${sql(m)}.${sql(col.marketId)} order by s.${sql(col.observedAt)} desc limit 1`;
  // Citus pushes a lateral LIMIT down only from a distributed table: the markets row anchors it.
  // The sweep fetches the books of markets it read from that table.
  const latest = (await onCitus(sql))
    ? sql`left join (
        select l.* from ${sql(marketsTable)} m cross join lateral (${latestOf('m')}) l where m.${sql(marketCol.marketId)} = any(${ids}::text[])
      ) l on l.${sql(col.marketId)} = i.market_id`
    : sql`left join lateral (${latestOf('i')}) l on true`;
  return sql<{ changed: number[]; confirmed: number }[]>`
    with input as (
      select * from unnest(${ids}::text[], string_to_array(${observed.map((o) => o.contentHash).join(',')}, ','),
                           string_to_array(${times.join(',')}, ',')::timestamptz[],
                           string_to_array(${signalTimes.join(',')}, ',', '')::timestamptz[])
        with ordinality as t(market_id, content_hash, observed_at, signalled_at, ord)
    ),
    compared as (
      select i.*, i.signalled_at is not null as signalled, l.${sql(col.observedAt)} as latest_at, l.${sql(col.lastObservedAt)} as latest_seen_at,
             l.${sql(col.contentHash)} is not distinct from i.content_hash as same,
             l.${sql(col.contentHash)} is distinct from i.content_hash
               and (l.${sql(col.lastObservedAt)} is null or l.${sql(col.lastObservedAt)} < i.observed_at) as is_new
      from input i
      ${latest}
    ),
    confirmed as (
      update ${sql(snapshots)} s set ${sql(col.lastObservedAt)} = c.observed_at
      from compared c
      where c.same and s.${sql(col.marketId)} = c.market_id and s.${sql(col.observedAt)} = c.latest_at
        and s.${sql(col.lastObservedAt)} < c.observed_at
      returning 1
    ),
    ${countFetches(sql)}
    select (select coalesce(array_agg(ord::int order by ord), '{}') from compared where is_new) as changed,
           (select count(*) from confirmed)::int as confirmed`.execute();
}

/**
 * The CTEs that count each fetch in its market's prediction.book_fetches row, from `compared`
 * (a row a book: market_id, observed_at, signalled, signalled_at, is_new): a market's first fetch
 * makes the row; a later one adds to the changed count (its book became a new snapshot), with the
 * time since the fetch before and its square, or to the unchanged one, with that time, or, brought
 * forward by a change signal, to the signalled counts (a found change also to
 * signalled_changed_fetches) with its lag behind the signal. A fetch not after the market's latest (a late answer, or the same batch written again
 * after a crash) is not counted, so the row only moves forward and a rerun counts nothing twice.
 * Part of the comparison's statement: no statement or round trip of its own, and it can never
 * disagree with the snapshots. The update changes no indexed column, so with the table's free
 * space (fillfactor) it stays a HOT update, without index entries.
 */
function countFetches(sql: Queryable) {
  const intervalSec = sql`extract(epoch from c.observed_at - f.${sql(fetchCol.lastFetchedAt)})::float8`;
  return sql`
    counted as (
      update ${sql(fetchesTable)} f set
        ${sql(fetchCol.lastFetchedAt)} = c.observed_at,
        ${sql(fetchCol.fetches)} = f.${sql(fetchCol.fetches)} + 1,
        ${sql(fetchCol.changedFetches)} = f.${sql(fetchCol.changedFetches)} + (c.is_new and not c.signalled)::int,
        ${sql(fetchCol.unchangedFetches)} = f.${sql(fetchCol.unchangedFetches)} + (not c.is_new and not c.signalled)::int,
        ${sql(fetchCol.signalledFetches)} = f.${sql(fetchCol.signalledFetches)} + c.signalled::int,
        ${sql(fetchCol.signalledChangedFetches)} = f.${sql(fetchCol.signalledChangedFetches)} + (c.is_new and c.signalled)::int,
        ${sql(fetchCol.changedIntervalSec)} = f.${sql(fetchCol.changedIntervalSec)}
          + case when c.is_new and not c.signalled then ${intervalSec} else 0 end,
        ${sql(fetchCol.changedIntervalSqSec)} = f.${sql(fetchCol.changedIntervalSqSec)}
          + case when c.is_new and not c.signalled then ${intervalSec} ^ 2 else 0 end,
        ${sql(fetchCol.unchangedIntervalSec)} = f.${sql(fetchCol.unchangedIntervalSec)}
          + case when not c.is_new and not c.signalled then ${intervalSec} else 0 end,
        ${sql(fetchCol.signalledIntervalSec)} = f.${sql(fetchCol.signalledIntervalSec)}
          + case when c.signalled then ${intervalSec} else 0 end,
        -- A signal time after the answer (the upstream's clock for a fill) counts no lag.
        ${sql(fetchCol.signalledLagSec)} = f.${sql(fetchCol.signalledLagSec)}
          + case when c.signalled then greatest(0, extract(epoch from c.observed_at - c.signalled_at)::float8) else 0 end
      from compared c
      where f.${sql(fetchCol.marketId)} = c.market_id and f.${sql(fetchCol.lastFetchedAt)} < c.observed_at
      returning f.${sql(fetchCol.marketId)}
    ),
    -- Only the markets the update above did not count: probing every market's key again to find
    -- its conflict cost as much as the update (bench/levels.ts). A market whose row the update
    -- left alone (a late answer) conflicts and is not counted. An anti-join, not a correlated
    -- probe: a Citus cluster cannot plan one beside a CTE.
    first_fetched as (
      insert into ${sql(fetchesTable)} (${sql(fetchCol.marketId)}, ${sql(fetchCol.lastFetchedAt)}, ${sql(fetchCol.fetches)})
      select c.market_id, c.observed_at, 1 from compared c left join counted u on u.${sql(fetchCol.marketId)} = c.market_id
      where u.${sql(fetchCol.marketId)} is null
      on conflict (${sql(fetchCol.marketId)}) do nothing
      returning 1
    )`;
}

/** A new snapshot as a COPY line of SNAPSHOT_COLUMNS, its levels encoded (storedLevels). */
export function snapshotLine(book: OrderBook, bookHash: string, at: string): string {
  const stored = storedLevels(book);
  const fields = [
    copyField(book.marketId),
    at,
    at,
    String(book.yes.length),
    String(book.no.length),
    bookHash,
    String(book.isNull),
    copyField(stored.priceScale),
    copyField(stored.sizeScale),
    copyArray(stored.priceUnits),
    copyArray(stored.sizeUnits),
    copyArray(stored.exactPriceCents),
    copyArray(stored.exactSizes),
  ];
  return `${fields.join('\t')}\n`;
}

/** An array of numbers or canonical decimals in COPY text format (none needs quoting or escaping). */
function copyArray(values: readonly (number | string)[] | null): string {
  return values === null ? '\\N' : `{${values.join(',')}}`;
}

/** Identifies a book's content: equal books, equal hashes. */
export function contentHash(book: OrderBook): string {
  const side = (levels: OrderBook['yes']) => levels.map((l) => `${l.priceCents}:${l.size}`).join(',');
  return hash('sha256', `${book.isNull ? 'null' : 'book'}|${side(book.yes)}|${side(book.no)}`, 'base64url');
}
