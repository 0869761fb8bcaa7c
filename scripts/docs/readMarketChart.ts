/** The series of one market's chart (renderMarketChart), read from the `analytics` views. */
import type postgres from 'postgres';

import type { MarketChartData, StepPoint } from './renderMarketChart.js';

/**
 * The market with the most recorded changes (price snapshots plus books), among markets whose
 * book was seen with levels; ties by id. Undefined when no market has both.
 */
export async function pickBusiestMarket(sql: postgres.Sql): Promise<string | undefined> {
  const [row] = await sql<{ market_id: string }[]>`
    select b.market_id
    from (select market_id, count(*) as books from analytics.orderbook_top where not is_null group by market_id) b
    join (select market_id, count(*) as prices from analytics.price_history group by market_id) p using (market_id)
    order by b.books + p.prices desc, b.market_id
    limit 1`;
  return row?.market_id;
}

const seconds = (at: Date): number => at.getTime() / 1000;
const cents = (usd: string | null): number | null => (usd === null ? null : Number(usd) * 100);
const number = (value: string | null): number | null => (value === null ? null : Number(value));

export async function readMarketChart(sql: postgres.Sql, marketId: string, source: string): Promise<MarketChartData> {
  const prices = await sql<{ valid_from: Date; yes_mid_usd: string | null }[]>`
    select valid_from, yes_mid_usd from analytics.price_history where market_id = ${marketId} order by valid_from`;
  const books = await sql<
    { valid_from: Date; best_yes_bid_cents: string | null; best_yes_ask_cents: string | null; bid5: string | null; ask5: string | null }[]
  >`
    select valid_from, best_yes_bid_cents, best_yes_ask_cents,
           yes_bid_depth_5c_contracts as bid5, yes_ask_depth_5c_contracts as ask5
    from analytics.orderbook_top where market_id = ${marketId} order by valid_from`;
  const [last] = await sql<{ end_at: Date; title: string | null }[]>`
    select greatest((select max(last_observed_at) from analytics.price_history where market_id = ${marketId}),
                    (select max(last_observed_at) from analytics.orderbook_top where market_id = ${marketId})) as end_at,
           (select m.title from prediction.markets m where m.market_id = ${marketId}) as title`;
  const series = <T>(rows: T[], at: (r: T) => Date, value: (r: T) => number | null): StepPoint[] =>
    rows.map((r) => ({ atSec: seconds(at(r)), value: value(r) }));
  return {
    marketId,
    title: `${marketId}${last?.title ? `: ${last.title}` : ''}`,
    source,
    endSec: seconds(last!.end_at),
    listedMidCents: series(
      prices,
      (r) => r.valid_from,
      (r) => cents(r.yes_mid_usd),
    ),
    bookBidCents: series(
      books,
      (r) => r.valid_from,
      (r) => number(r.best_yes_bid_cents),
    ),
    bookAskCents: series(
      books,
      (r) => r.valid_from,
      (r) => number(r.best_yes_ask_cents),
    ),
    bidDepthContracts: series(
      books,
      (r) => r.valid_from,
      (r) => number(r.bid5),
    ),
    askDepthContracts: series(
      books,
      (r) => r.valid_from,
      (r) => number(r.ask5),
    ),
  };
}
