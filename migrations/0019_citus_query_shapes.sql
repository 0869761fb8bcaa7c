-- Query shapes a Citus cluster can plan (docs/scaling.md, "What has run on a cluster"), with the same answers
-- on one Postgres. Citus plans a statement before Postgres inlines the SQL functions in it: a SQL
-- function over distributed tables is either refused ("parameterized queries for SQL functions
-- referencing distributed tables are not supported") or, inlined later, read from the
-- coordinator's empty shell tables and answered wrongly. The as-of functions and cost_to_buy_yes
-- are therefore PL/pgSQL, whose statements Citus plans one by one: a lookup of one market is routed
-- to its shard, a lookup over many markets is anchored on prediction.markets (a lateral LIMIT
-- pushes down only from a distributed table, joined on market_id). Retention's horizon is read
-- first (prediction.dropped_partitions stays on the coordinator) and passed in as a value.
-- market_resolutions computed `pending` from scalar subqueries in a lateral without FROM, which
-- Citus refuses ("correlated subqueries are not supported when the FROM clause contains a
-- subquery without FROM"): the two lookups are laterals of their own.
CREATE OR REPLACE FUNCTION "analytics"."price_as_of"(p_market_id text, p_at timestamptz)
RETURNS SETOF "analytics"."market_as_of"
LANGUAGE plpgsql STABLE PARALLEL SAFE
AS $$
DECLARE
  horizon timestamptz;
  r analytics.market_as_of;
BEGIN
  SELECT max(d.range_end) INTO horizon FROM prediction.dropped_partitions d
   WHERE d.table_name IN ('pricing_snapshots', 'market_state_history');
  r.market_id := p_market_id;
  r.as_of := p_at;
  -- Before the horizon nothing is looked up: what survived there is incomplete.
  IF horizon IS NULL OR p_at >= horizon THEN
    -- State rows are contiguous (a change closes one row and opens the next at the same
    -- instant), so the latest row started by p_at is the one in force at p_at. Retention drops a
    -- state partition only when none of its rows is in force at the horizon.
    SELECT sh.status, sh.result, sh.settlement_time, sh.valid_from
      INTO r.status, r.result, r.settlement_time, r.state_observed_at
      FROM prediction.market_state_history sh
     WHERE sh.market_id = p_market_id AND sh.valid_from <= p_at
     ORDER BY sh.valid_from DESC
     LIMIT 1;
    SELECT ph.valid_from, ph.buy_yes_usd, ph.sell_yes_usd, ph.buy_no_usd, ph.sell_no_usd, ph.yes_bid_usd,
           ph.yes_ask_usd, ph.yes_mid_usd, ph.yes_spread_usd, ph.implied_yes_probability, ph.volume
      INTO r.quote_observed_at, r.buy_yes_usd, r.sell_yes_usd, r.buy_no_usd, r.sell_no_usd, r.yes_bid_usd,
           r.yes_ask_usd, r.yes_mid_usd, r.yes_spread_usd, r.implied_yes_probability, r.volume
      FROM analytics.price_history ph
     WHERE ph.market_id = p_market_id AND ph.valid_from <= p_at
     ORDER BY ph.valid_from DESC
     LIMIT 1;
  END IF;
  -- Absent only for a market seen by p_at and before the horizon: before it everything was
  -- dropped; after it, with no quote at or after the horizon, the one in force may have been.
  r.history_absent := horizon IS NOT NULL
    AND (p_at < horizon OR r.quote_observed_at IS NULL)
    AND EXISTS (SELECT 1 FROM prediction.markets m
                 WHERE m.market_id = p_market_id AND m.first_seen_at <= p_at AND m.first_seen_at < horizon);
  IF r.state_observed_at IS NOT NULL OR r.quote_observed_at IS NOT NULL OR r.history_absent THEN
    RETURN NEXT r;
  END IF;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "analytics"."prices_as_of"(p_at timestamptz)
RETURNS SETOF "analytics"."market_as_of"
LANGUAGE plpgsql STABLE PARALLEL SAFE
AS $$
DECLARE
  horizon timestamptz;
BEGIN
  SELECT max(d.range_end) INTO horizon FROM prediction.dropped_partitions d
   WHERE d.table_name IN ('pricing_snapshots', 'market_state_history');
  IF p_at < horizon THEN
    -- Before the horizon nothing is looked up (see price_as_of): each market seen by then is absent.
    -- A statement of its own: a lookup whose condition is false for every row plans as an empty
    -- relation, which Citus can no longer join on market_id.
    RETURN QUERY
    SELECT m.market_id, p_at, NULL::text, NULL::text, NULL::timestamptz, NULL::timestamptz, NULL::timestamptz,
           NULL::numeric, NULL::numeric, NULL::numeric, NULL::numeric, NULL::numeric, NULL::numeric, NULL::numeric,
           NULL::numeric, NULL::numeric, NULL::numeric, true
      FROM prediction.markets m
     WHERE m.first_seen_at <= p_at AND m.first_seen_at < horizon;
    RETURN;
  END IF;
  -- price_as_of for every market, in one statement: each lateral reads one market's rows.
  RETURN QUERY
  SELECT x.market_id, p_at, x.status, x.result, x.settlement_time, x.state_observed_at,
         x.quote_observed_at, x.buy_yes_usd, x.sell_yes_usd, x.buy_no_usd, x.sell_no_usd, x.yes_bid_usd,
         x.yes_ask_usd, x.yes_mid_usd, x.yes_spread_usd, x.implied_yes_probability, x.volume, x.absent
    FROM (
      SELECT m.market_id, s.status, s.result, s.settlement_time, s.valid_from AS state_observed_at,
             q.valid_from AS quote_observed_at, q.buy_yes_usd, q.sell_yes_usd, q.buy_no_usd, q.sell_no_usd,
             q.yes_bid_usd, q.yes_ask_usd, q.yes_mid_usd, q.yes_spread_usd, q.implied_yes_probability, q.volume,
             horizon IS NOT NULL AND q.valid_from IS NULL
               AND m.first_seen_at <= p_at AND m.first_seen_at < horizon AS absent
        FROM prediction.markets m
        LEFT JOIN LATERAL (
          SELECT sh.status, sh.result, sh.settlement_time, sh.valid_from
            FROM prediction.market_state_history sh
           WHERE sh.market_id = m.market_id AND sh.valid_from <= p_at
           ORDER BY sh.valid_from DESC
           LIMIT 1
        ) s ON true
        LEFT JOIN LATERAL (
          SELECT ph.valid_from, ph.buy_yes_usd, ph.sell_yes_usd, ph.buy_no_usd, ph.sell_no_usd, ph.yes_bid_usd,
                 ph.yes_ask_usd, ph.yes_mid_usd, ph.yes_spread_usd, ph.implied_yes_probability, ph.volume
            FROM analytics.price_history ph
           WHERE ph.market_id = m.market_id AND ph.valid_from <= p_at
           ORDER BY ph.valid_from DESC
           LIMIT 1
        ) q ON true
    ) x
   WHERE x.state_observed_at IS NOT NULL OR x.quote_observed_at IS NOT NULL OR x.absent;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "analytics"."prices_as_of"(p_market_ids text[], p_ats timestamptz[])
RETURNS TABLE (
  input_ordinal bigint,
  market_id text,
  as_of timestamptz,
  status text,
  result text,
  settlement_time timestamptz,
  state_observed_at timestamptz,
  quote_observed_at timestamptz,
  buy_yes_usd numeric,
  sell_yes_usd numeric,
  buy_no_usd numeric,
  sell_no_usd numeric,
  yes_bid_usd numeric,
  yes_ask_usd numeric,
  yes_mid_usd numeric,
  yes_spread_usd numeric,
  implied_yes_probability numeric,
  volume numeric,
  history_absent boolean
)
LANGUAGE plpgsql STABLE PARALLEL SAFE
AS $$
#variable_conflict use_column
DECLARE
  horizon timestamptz;
BEGIN
  SELECT max(d.range_end) INTO horizon FROM prediction.dropped_partitions d
   WHERE d.table_name IN ('pricing_snapshots', 'market_state_history');
  -- Every pair gets a row, in input order; the lookups are made from the markets row of each
  -- known pair (j), joined back to the pairs by their ordinal.
  RETURN QUERY
  SELECT i.ordinal, i.market_id, i.at,
         x.status, x.result, x.settlement_time, x.state_observed_at, x.quote_observed_at,
         x.buy_yes_usd, x.sell_yes_usd, x.buy_no_usd, x.sell_no_usd, x.yes_bid_usd, x.yes_ask_usd,
         x.yes_mid_usd, x.yes_spread_usd, x.implied_yes_probability, x.volume, coalesce(x.absent, false)
    FROM unnest(p_market_ids, p_ats) WITH ORDINALITY AS i(market_id, at, ordinal)
    LEFT JOIN (
      SELECT j.ordinal, s.status, s.result, s.settlement_time, s.valid_from AS state_observed_at,
             q.valid_from AS quote_observed_at, q.buy_yes_usd, q.sell_yes_usd, q.buy_no_usd, q.sell_no_usd,
             q.yes_bid_usd, q.yes_ask_usd, q.yes_mid_usd, q.yes_spread_usd, q.implied_yes_probability, q.volume,
             horizon IS NOT NULL AND (j.at < horizon OR q.valid_from IS NULL)
               AND m.first_seen_at <= j.at AND m.first_seen_at < horizon AS absent
        FROM prediction.markets m
        JOIN unnest(p_market_ids, p_ats) WITH ORDINALITY AS j(market_id, at, ordinal) ON j.market_id = m.market_id
        LEFT JOIN LATERAL (
          SELECT sh.status, sh.result, sh.settlement_time, sh.valid_from
            FROM prediction.market_state_history sh
           WHERE sh.market_id = m.market_id AND sh.valid_from <= j.at AND (horizon IS NULL OR j.at >= horizon)
           ORDER BY sh.valid_from DESC
           LIMIT 1
        ) s ON true
        LEFT JOIN LATERAL (
          SELECT ph.valid_from, ph.buy_yes_usd, ph.sell_yes_usd, ph.buy_no_usd, ph.sell_no_usd, ph.yes_bid_usd,
                 ph.yes_ask_usd, ph.yes_mid_usd, ph.yes_spread_usd, ph.implied_yes_probability, ph.volume
            FROM analytics.price_history ph
           WHERE ph.market_id = m.market_id AND ph.valid_from <= j.at AND (horizon IS NULL OR j.at >= horizon)
           ORDER BY ph.valid_from DESC
           LIMIT 1
        ) q ON true
    ) x ON x.ordinal = i.ordinal
   ORDER BY i.ordinal;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "analytics"."cost_to_buy_yes"(p_market_id text, p_contracts numeric, p_at timestamptz DEFAULT now())
RETURNS TABLE (
  market_id text,
  snapshot_id bigint,
  book_observed_at timestamptz,
  contracts_requested numeric,
  contracts_filled numeric,
  cost_usd numeric,
  average_price_cents numeric,
  best_ask_cents numeric,
  worst_price_cents numeric,
  slippage_cents numeric,
  fully_filled boolean
)
LANGUAGE plpgsql STABLE PARALLEL SAFE
AS $$
#variable_conflict use_column
BEGIN
  -- One statement on one market's rows: Citus routes it to that market's shard.
  RETURN QUERY
  WITH book AS (
    SELECT s.*
      FROM prediction.orderbook_snapshots s
     WHERE s.market_id = p_market_id AND s.observed_at <= p_at
     ORDER BY s.observed_at DESC
     LIMIT 1
  ),
  -- From the book row, not through analytics.orderbook_depth: a join qual is not pushed below
  -- that view's window, so the view would rank every level of every book first.
  asks AS (
    SELECT 100 - l.price_cents AS yes_price_cents,
           l.size,
           row_number() OVER best_first AS level_rank,
           coalesce(sum(l.size) OVER (best_first ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS contracts_before
      FROM book b
     CROSS JOIN LATERAL prediction.book_levels(b.yes_levels, b.price_scale, b.size_scale, b.price_units, b.size_units,
                                               b.exact_price_cents, b.exact_sizes) l
     WHERE l.side = 'no'
    WINDOW best_first AS (ORDER BY l.price_cents DESC)
  ),
  fills AS (
    SELECT a.yes_price_cents, a.level_rank, least(a.size, p_contracts - a.contracts_before) AS filled
      FROM asks a
     WHERE a.contracts_before < p_contracts
  ),
  totals AS (
    SELECT coalesce(sum(f.filled), 0) AS filled,
           coalesce(sum(f.filled * f.yes_price_cents), 0) AS cost_cents,
           max(f.yes_price_cents) AS worst,
           min(f.yes_price_cents) FILTER (WHERE f.level_rank = 1) AS best
      FROM fills f
  )
  SELECT b.market_id, b.snapshot_id, b.observed_at,
         p_contracts,
         t.filled,
         t.cost_cents * 0.01,
         round(t.cost_cents / nullif(t.filled, 0), 6),
         t.best,
         t.worst,
         round(t.cost_cents / nullif(t.filled, 0), 6) - t.best,
         t.filled >= p_contracts
    FROM book b CROSS JOIN totals t;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE VIEW "analytics"."market_resolutions" AS
 SELECT m.market_id,
    m.event_id,
    m.provider,
    e.category,
    m.title,
    m.status,
    m.result,
    m.result IS NOT NULL AS is_settled,
    m.open_time,
    m.close_time,
    m.settlement_time,
    m.first_seen_at,
    st.closed_first_observed_at,
    st.settlement_time_first_observed_at,
    GREATEST(pending_state.observed_at, pending_price.observed_at) AS settled_last_pending_observed_at,
    st.settled_first_observed_at,
    EXTRACT(epoch FROM m.settlement_time - m.close_time) AS settlement_lag_seconds,
    EXTRACT(epoch FROM GREATEST(pending_state.observed_at, pending_price.observed_at) - m.close_time) AS observed_settlement_lag_min_seconds,
    EXTRACT(epoch FROM st.settled_first_observed_at - m.close_time) AS observed_settlement_lag_max_seconds
   FROM prediction.markets m
     JOIN prediction.events e ON e.event_id = m.event_id
     CROSS JOIN LATERAL ( SELECT min(h.valid_from) FILTER (WHERE h.status = 'closed'::text) AS closed_first_observed_at,
            min(h.valid_from) FILTER (WHERE h.settlement_time IS NOT NULL) AS settlement_time_first_observed_at,
            min(h.valid_from) FILTER (WHERE h.result IS NOT NULL) AS settled_first_observed_at
           FROM prediction.market_state_history h
          WHERE h.market_id = m.market_id) st
     -- The last observation before the settlement was first seen: of a state row, or of a price.
     LEFT JOIN LATERAL ( SELECT max(h.valid_from) AS observed_at
           FROM prediction.market_state_history h
          WHERE h.market_id = m.market_id AND h.valid_from < st.settled_first_observed_at) pending_state ON true
     LEFT JOIN LATERAL ( SELECT
                CASE
                    WHEN p.last_observed_at < st.settled_first_observed_at THEN p.last_observed_at
                    ELSE p.observed_at
                END AS observed_at
           FROM prediction.pricing_snapshots p
          WHERE p.market_id = m.market_id AND p.observed_at < st.settled_first_observed_at
          ORDER BY p.observed_at DESC
         LIMIT 1) pending_price ON true;
