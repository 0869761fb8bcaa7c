import type postgres from 'postgres';

/**
 * Everything the pipeline stores about the upstream, without the observation times (which differ
 * between two runs of the same data): two databases holding the same history give equal values.
 */
export async function dbContent(sql: postgres.Sql) {
  const rows = async (query: postgres.PendingQuery<postgres.Row[]>) => (await query).map((r) => JSON.stringify(r));
  return {
    events: await rows(sql`select event_id, provider, series, category, subcategory, title, winner, is_active, is_live,
      begin_at, tvl_usd, volume_usd, raw, drift from prediction.events order by event_id`),
    markets: await rows(sql`select market_id, event_id, provider, title, status, result, open_time, close_time,
      settlement_time, is_tradable, raw, drift from prediction.markets order by market_id`),
    marketStates: await rows(sql`select market_id, status, result, settlement_time, count(*) over (partition by market_id) as versions,
      valid_to is null as current from prediction.market_state_history order by market_id, valid_from`),
    eventStates: await rows(sql`select event_id, is_active, is_live, winner, valid_to is null as current
      from prediction.event_state_history order by event_id, valid_from`),
    pricing: await rows(sql`select market_id, buy_yes_micro_usd, buy_no_micro_usd, sell_yes_micro_usd, sell_no_micro_usd, volume
      from prediction.pricing_snapshots order by market_id, observed_at`),
    books: await rows(sql`select s.market_id, s.content_hash, s.is_null, s.yes_levels, s.no_levels,
      (select count(*) from prediction.orderbook_levels l where l.market_id = s.market_id and l.snapshot_id = s.snapshot_id) as levels
      from prediction.orderbook_snapshots s order by s.market_id, s.observed_at`),
    trades: await rows(sql`select trade_id, market_id, event_id, traded_at, action, side, price_micro_usd, amount_micro_usd,
      owner_pubkey, raw, drift from prediction.trades order by trade_id`),
    rejected: await rows(sql`select endpoint, entity_id, reason from prediction.rejected_records order by endpoint, entity_id, reason`),
  };
}

/** Row counts of the history tables: what "no new rows" is measured by. */
type HistoryTable =
  | 'events'
  | 'markets'
  | 'market_state_history'
  | 'event_state_history'
  | 'pricing_snapshots'
  | 'orderbook_snapshots'
  | 'orderbook_levels'
  | 'rejected_records';

export async function historyRowCounts(sql: postgres.Sql): Promise<Record<HistoryTable, number>> {
  const [row] = await sql<Record<HistoryTable, number>[]>`
    select (select count(*)::int from prediction.events) as events,
           (select count(*)::int from prediction.markets) as markets,
           (select count(*)::int from prediction.market_state_history) as market_state_history,
           (select count(*)::int from prediction.event_state_history) as event_state_history,
           (select count(*)::int from prediction.pricing_snapshots) as pricing_snapshots,
           (select count(*)::int from prediction.orderbook_snapshots) as orderbook_snapshots,
           (select count(*)::int from prediction.orderbook_levels) as orderbook_levels,
           (select count(*)::int from prediction.rejected_records) as rejected_records`;
  return row!;
}
