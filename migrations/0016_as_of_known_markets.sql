-- analytics.price_as_of before the retention horizon answered for any market id, known or not, so
-- analytics.prices_as_of(at) listed every market ever stored, those first seen after `at` too, and
-- prices_as_of(ids, ats) marked unknown ids history_absent. A market is now absent only where it
-- had been seen by p_at (prediction.markets.first_seen_at, which retention never drops); otherwise
-- it has no row, as without retention. The body is 0013's but for the `absent` lateral.
CREATE OR REPLACE FUNCTION "analytics"."price_as_of"(p_market_id text, p_at timestamptz)
RETURNS SETOF "analytics"."market_as_of"
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
  SELECT p_market_id, p_at,
         s.status, s.result, s.settlement_time, s.valid_from,
         q.valid_from, q.buy_yes_usd, q.sell_yes_usd, q.buy_no_usd, q.sell_no_usd,
         q.yes_bid_usd, q.yes_ask_usd, q.yes_mid_usd, q.yes_spread_usd, q.implied_yes_probability, q.volume,
         a.absent
  FROM (SELECT max(d.range_end) AS horizon FROM prediction.dropped_partitions d
         WHERE d.table_name IN ('pricing_snapshots', 'market_state_history')) h
  -- Before the horizon nothing is looked up: what survived there is incomplete.
  LEFT JOIN LATERAL (
    -- State rows are contiguous (a change closes one row and opens the next at the same
    -- instant), so the latest row started by p_at is the one in force at p_at. Retention drops a
    -- state partition only when none of its rows is in force at the horizon.
    SELECT sh.status, sh.result, sh.settlement_time, sh.valid_from
      FROM prediction.market_state_history sh
     WHERE sh.market_id = p_market_id AND sh.valid_from <= p_at
       AND (h.horizon IS NULL OR p_at >= h.horizon)
     ORDER BY sh.valid_from DESC
     LIMIT 1
  ) s ON true
  LEFT JOIN LATERAL (
    SELECT ph.valid_from, ph.buy_yes_usd, ph.sell_yes_usd, ph.buy_no_usd, ph.sell_no_usd, ph.yes_bid_usd,
           ph.yes_ask_usd, ph.yes_mid_usd, ph.yes_spread_usd, ph.implied_yes_probability, ph.volume
      FROM analytics.price_history ph
     WHERE ph.market_id = p_market_id AND ph.valid_from <= p_at
       AND (h.horizon IS NULL OR p_at >= h.horizon)
     ORDER BY ph.valid_from DESC
     LIMIT 1
  ) q ON true
  CROSS JOIN LATERAL (
    -- Absent only for a market seen by p_at and before the horizon: before it everything was
    -- dropped; after it, with no quote at or after the horizon, the one in force may have been.
    SELECT h.horizon IS NOT NULL
           AND (p_at < h.horizon OR q.valid_from IS NULL)
           AND EXISTS (SELECT 1 FROM prediction.markets m
                        WHERE m.market_id = p_market_id AND m.first_seen_at <= p_at AND m.first_seen_at < h.horizon)
           AS absent
  ) a
  WHERE s.valid_from IS NOT NULL OR q.valid_from IS NOT NULL OR a.absent
$$;
