import type { Pricing } from '../../domain/types.js';
import { markets, pricingSnapshots } from '../../schema/index.js';
import { onCitus } from '../core/onCitus.js';
import type { Queryable } from '../core/queryable.js';
import { sqlNames } from '../core/sqlNames.js';

const { table: snapshots, col } = sqlNames(pricingSnapshots);
const { table: marketsTable, col: marketCol } = sqlNames(markets);

export interface PricingObservation {
  marketId: string;
  pricing: Pricing;
}

export interface ObservationCounts {
  /** New snapshot rows (the values changed, or the market had none). */
  inserted: number;
  /** Snapshots whose values were confirmed: only last_observed_at moved. */
  confirmed: number;
}

/**
 * Change-only price history: inserts a snapshot only where the values differ from the market's
 * latest one; otherwise moves that snapshot's last_observed_at. Replaying an observation is a no-op,
 * and one older than the latest snapshot's last observation is ignored: it arrived late, and what
 * was seen after it stands. Market ids must be unique within the batch.
 */
export async function recordPricing(
  sql: Queryable,
  observations: readonly PricingObservation[],
  observedAt: Date,
): Promise<ObservationCounts> {
  if (observations.length === 0) return { inserted: 0, confirmed: 0 };
  const pick = (f: keyof Pricing) => observations.map((o) => o.pricing[f]);
  const ids = observations.map((o) => o.marketId);
  const citus = await onCitus(sql);
  const latestOf = (m: string) =>
    sql`select * from ${sql(snapshots)} p where p.${sql(col.marketId)} = ${sql(m)}.${sql(col.marketId)} order by p.${sql(col.observedAt)} desc limit 1`;
  // Citus pushes a lateral LIMIT down only from a distributed table: the markets row anchors it.
  // Prices are written after their market's row, in the same transaction (writeMarketRows).
  const latestOnCitus = sql`left join (
        select l.* from ${sql(marketsTable)} m cross join lateral (${latestOf('m')}) l where m.${sql(marketCol.marketId)} = any(${ids}::text[])
      ) l on l.${sql(col.marketId)} = i.market_id`;
  const latest = sql`left join lateral (${latestOf('i')}) l on true`;
  const [row] = await sql<ObservationCounts[]>`
    with input as (
      select market_id, buy_yes::numeric as buy_yes, buy_no::numeric as buy_no, sell_yes::numeric as sell_yes,
             sell_no::numeric as sell_no, volume::numeric as volume
      from unnest(${ids}::text[], ${pick('buyYesMicroUsd')}::text[],
                  ${pick('buyNoMicroUsd')}::text[], ${pick('sellYesMicroUsd')}::text[], ${pick('sellNoMicroUsd')}::text[],
                  ${pick('volume')}::text[]) as t(market_id, buy_yes, buy_no, sell_yes, sell_no, volume)
    ),
    compared as (
      select i.*, l.${sql(col.observedAt)} as latest_at, l.${sql(col.lastObservedAt)} as latest_seen_at,
             l.${sql(col.marketId)} is not null and (l.${sql(col.buyYesMicroUsd)}, l.${sql(col.buyNoMicroUsd)}, l.${sql(col.sellYesMicroUsd)},
               l.${sql(col.sellNoMicroUsd)}, l.${sql(col.volume)}) is not distinct from (i.buy_yes, i.buy_no, i.sell_yes, i.sell_no, i.volume) as same
      from input i
      ${citus ? latestOnCitus : latest}
    ),
    inserted as (
      insert into ${sql(snapshots)} (${sql(col.marketId)}, ${sql(col.observedAt)}, ${sql(col.lastObservedAt)}, ${sql(col.buyYesMicroUsd)},
        ${sql(col.buyNoMicroUsd)}, ${sql(col.sellYesMicroUsd)}, ${sql(col.sellNoMicroUsd)}, ${sql(col.volume)})
      select market_id, ${observedAt}::timestamptz, ${observedAt}::timestamptz, buy_yes, buy_no, sell_yes, sell_no, volume
      from compared where not same and (latest_seen_at is null or latest_seen_at < ${observedAt}::timestamptz)
      returning 1
    ),
    confirmed as (
      update ${sql(snapshots)} p set ${sql(col.lastObservedAt)} = ${observedAt}::timestamptz
      from compared c
      where c.same and p.${sql(col.marketId)} = c.market_id and p.${sql(col.observedAt)} = c.latest_at
        and p.${sql(col.lastObservedAt)} < ${observedAt}::timestamptz
      returning 1
    )
    select (select count(*) from inserted)::int as inserted, (select count(*) from confirmed)::int as confirmed`;
  return row ?? { inserted: 0, confirmed: 0 };
}
