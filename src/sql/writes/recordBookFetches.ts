import { bookFetches } from '../../schema/index.js';
import type { Queryable } from '../core/queryable.js';
import { sqlNames } from '../core/sqlNames.js';

const { table, col: c } = sqlNames(bookFetches);

/** One fetched book: its market, when its answer arrived, and whether it differed from the stored book. */
export interface BookFetch {
  marketId: string;
  observedAt: Date;
  changed: boolean;
}

/**
 * Counts each fetch in its market's prediction.book_fetches row: a market's first fetch makes the
 * row; a later one adds to the changed or unchanged count, with the time since the fetch before.
 * A fetch not after the market's latest (a late answer) is ignored, so the row only moves forward.
 * Market ids must be unique within the call; run it in the books' write transaction.
 */
export async function recordBookFetches(sql: Queryable, fetches: readonly BookFetch[]): Promise<void> {
  if (fetches.length === 0) return;
  const ids = fetches.map((f) => f.marketId);
  const times = fetches.map((f) => f.observedAt.toISOString()).join(',');
  const changed = fetches.map((f) => (f.changed ? 't' : 'f')).join(',');
  await sql`
    with input as (
      select * from unnest(${ids}::text[], string_to_array(${times}, ',')::timestamptz[], string_to_array(${changed}, ',')::boolean[])
        as t(market_id, observed_at, changed)
    ),
    counted as (
      update ${sql(table)} f set
        ${sql(c.lastFetchedAt)} = i.observed_at,
        ${sql(c.fetches)} = f.${sql(c.fetches)} + 1,
        ${sql(c.changedFetches)} = f.${sql(c.changedFetches)} + i.changed::int,
        ${sql(c.unchangedFetches)} = f.${sql(c.unchangedFetches)} + (not i.changed)::int,
        ${sql(c.changedIntervalSec)} = f.${sql(c.changedIntervalSec)}
          + case when i.changed then extract(epoch from i.observed_at - f.${sql(c.lastFetchedAt)})::float8 else 0 end,
        ${sql(c.unchangedIntervalSec)} = f.${sql(c.unchangedIntervalSec)}
          + case when i.changed then 0 else extract(epoch from i.observed_at - f.${sql(c.lastFetchedAt)})::float8 end
      from input i
      where f.${sql(c.marketId)} = i.market_id and f.${sql(c.lastFetchedAt)} < i.observed_at
      returning f.${sql(c.marketId)}
    )
    -- A market with a row conflicts and is left to the update above (no correlated probe: a Citus
    -- cluster cannot plan one beside a CTE).
    insert into ${sql(table)} (${sql(c.marketId)}, ${sql(c.lastFetchedAt)}, ${sql(c.fetches)})
    select i.market_id, i.observed_at, 1 from input i
    on conflict (${sql(c.marketId)}) do nothing`;
}
