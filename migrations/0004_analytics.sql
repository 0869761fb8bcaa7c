-- The analyst layer: read-only views and functions over `prediction` (schema created in 0003).
--
-- Storage is change-only: a price snapshot, order-book snapshot or state row is written when the
-- values change, and is valid from its observed_at (valid_from) until the next row's. Everything
-- here turns that into what an analyst expects: USD, implied probabilities, validity intervals,
-- point-in-time lookups and regular candles. Names and columns are a public interface: add,
-- never rename. One statement per breakpoint (the migrator sends each chunk as one statement).

-- Price history ------------------------------------------------------------------------------
-- valid_to is a correlated index probe rather than lead(): a window would stop the planner from
-- pushing `valid_from <= x` into the view, and every as-of lookup would read a market's whole
-- history. As a probe it is computed only for the rows a query returns.
-- Prices are scaled with `* 0.000001` rather than `/ 1000000`: multiplication keeps numeric's
-- scale exact (0.650000), division pads it to 20 digits.
CREATE VIEW "analytics"."price_history" AS
SELECT
  p.market_id,
  p.observed_at AS valid_from,
  (SELECT n.observed_at
     FROM prediction.pricing_snapshots n
    WHERE n.market_id = p.market_id AND n.observed_at > p.observed_at
    ORDER BY n.observed_at
    LIMIT 1) AS valid_to,
  p.last_observed_at,
  p.buy_yes_micro_usd * 0.000001 AS buy_yes_usd,
  p.sell_yes_micro_usd * 0.000001 AS sell_yes_usd,
  p.buy_no_micro_usd * 0.000001 AS buy_no_usd,
  p.sell_no_micro_usd * 0.000001 AS sell_no_usd,
  q.yes_bid_usd,
  q.yes_ask_usd,
  (q.yes_bid_usd + q.yes_ask_usd) * 0.5 AS yes_mid_usd,
  q.yes_ask_usd - q.yes_bid_usd AS yes_spread_usd,
  -- A contract pays $1, so the YES mid in USD is the implied probability.
  (q.yes_bid_usd + q.yes_ask_usd) * 0.5 AS implied_yes_probability,
  p.volume
FROM prediction.pricing_snapshots p
CROSS JOIN LATERAL (
  -- Selling YES equals buying NO at 1 - price: the other side fills in when one is missing.
  SELECT coalesce(p.sell_yes_micro_usd, 1000000 - p.buy_no_micro_usd) * 0.000001 AS yes_bid_usd,
         coalesce(p.buy_yes_micro_usd, 1000000 - p.sell_no_micro_usd) * 0.000001 AS yes_ask_usd
) q;
--> statement-breakpoint
COMMENT ON VIEW "analytics"."price_history" IS 'One row per distinct set of prices of a market, valid over [valid_from, valid_to). Prices in USD per contract (a contract pays $1 if its side wins). Filter on market_id and valid_from for speed. The value at an instant t is the row with valid_from <= t < valid_to (see analytics.price_as_of).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."price_history"."market_id" IS 'Market id (prediction.markets.market_id).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."price_history"."valid_from" IS 'First observation of these prices (UTC); they are in force from this instant, inclusive.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."price_history"."valid_to" IS 'First observation of the next, different prices (UTC), exclusive end of validity; null while these are the current prices. The change happened between last_observed_at and valid_to.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."price_history"."last_observed_at" IS 'Latest observation that confirmed these prices (UTC). They were not seen after it: the change to the next prices happened between it and valid_to, and they are taken as unchanged until valid_to.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."price_history"."buy_yes_usd" IS 'Price to buy one YES contract, USD (upstream buyYesPriceUsd / 1e6): the YES ask.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."price_history"."sell_yes_usd" IS 'Price received for selling one YES contract, USD (upstream sellYesPriceUsd / 1e6): the YES bid.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."price_history"."buy_no_usd" IS 'Price to buy one NO contract, USD (upstream buyNoPriceUsd / 1e6): the NO ask.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."price_history"."sell_no_usd" IS 'Price received for selling one NO contract, USD (upstream sellNoPriceUsd / 1e6): the NO bid.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."price_history"."yes_bid_usd" IS 'Best YES bid, USD: sell_yes_usd, or 1 - buy_no_usd when that is missing.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."price_history"."yes_ask_usd" IS 'Best YES ask, USD: buy_yes_usd, or 1 - sell_no_usd when that is missing.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."price_history"."yes_mid_usd" IS 'YES mid price, USD: (yes_bid_usd + yes_ask_usd) / 2; null when either side is unknown.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."price_history"."yes_spread_usd" IS 'YES bid-ask spread, USD: yes_ask_usd - yes_bid_usd.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."price_history"."implied_yes_probability" IS 'Implied probability that the market resolves YES, 0..1: the YES mid (a contract pays $1).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."price_history"."volume" IS 'Traded volume as reported upstream (pricing.volume; units undocumented, stored as received).';
--> statement-breakpoint

-- Latest state of every market -------------------------------------------------------------------
CREATE VIEW "analytics"."market_latest" AS
SELECT
  m.market_id,
  m.event_id,
  m.provider,
  e.category,
  e.title AS event_title,
  m.title,
  m.status,
  m.result,
  m.is_tradable,
  m.open_time,
  m.close_time,
  m.settlement_time,
  m.first_seen_at,
  m.last_seen_at,
  h.valid_from AS quote_observed_at,
  h.last_observed_at AS quote_last_observed_at,
  h.buy_yes_usd,
  h.sell_yes_usd,
  h.buy_no_usd,
  h.sell_no_usd,
  h.yes_bid_usd,
  h.yes_ask_usd,
  h.yes_mid_usd,
  h.yes_spread_usd,
  h.implied_yes_probability,
  h.volume
FROM prediction.markets m
JOIN prediction.events e ON e.event_id = m.event_id
LEFT JOIN LATERAL (
  SELECT ph.valid_from, ph.last_observed_at, ph.buy_yes_usd, ph.sell_yes_usd, ph.buy_no_usd, ph.sell_no_usd,
         ph.yes_bid_usd, ph.yes_ask_usd, ph.yes_mid_usd, ph.yes_spread_usd, ph.implied_yes_probability, ph.volume
    FROM analytics.price_history ph
   WHERE ph.market_id = m.market_id
   ORDER BY ph.valid_from DESC
   LIMIT 1
) h ON true;
--> statement-breakpoint
COMMENT ON VIEW "analytics"."market_latest" IS 'One row per market ever seen: its current status and result, and its current prices in USD with the implied YES probability and spread. Price columns are null for a market never seen with prices.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_latest"."market_id" IS 'Market id, e.g. POLY-558936 or a Kalshi ticker; unique across providers.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_latest"."event_id" IS 'Event the market belongs to (prediction.events.event_id).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_latest"."provider" IS 'Provider listing the market: kalshi, polymarket (others possible).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_latest"."category" IS 'Category of the market''s event (crypto, sports, politics, esports, culture, economics, tech); null if upstream gave none.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_latest"."event_title" IS 'Title of the market''s event.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_latest"."title" IS 'Title of the market.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_latest"."status" IS 'Current trading status: open or closed.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_latest"."result" IS 'Current result: yes, no, or null while unresolved.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_latest"."is_tradable" IS 'Whether upstream marks the market tradable; null if never reported.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_latest"."open_time" IS 'When trading opens or opened (UTC), as reported upstream.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_latest"."close_time" IS 'When trading closes or closed (UTC), as reported upstream.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_latest"."settlement_time" IS 'When the market settled (UTC), as reported upstream; null while settlement is pending.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_latest"."first_seen_at" IS 'First observation of the market by the pipeline (UTC).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_latest"."last_seen_at" IS 'Latest observation of the market by the pipeline (UTC): how fresh this row is.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_latest"."quote_observed_at" IS 'When the current prices were first observed (UTC): they have been unchanged since.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_latest"."quote_last_observed_at" IS 'Latest observation that confirmed the current prices (UTC).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_latest"."buy_yes_usd" IS 'Current price to buy one YES contract (YES ask), USD.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_latest"."sell_yes_usd" IS 'Current price received for selling one YES contract (YES bid), USD.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_latest"."buy_no_usd" IS 'Current price to buy one NO contract (NO ask), USD.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_latest"."sell_no_usd" IS 'Current price received for selling one NO contract (NO bid), USD.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_latest"."yes_bid_usd" IS 'Current best YES bid, USD: sell_yes_usd, or 1 - buy_no_usd when that is missing.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_latest"."yes_ask_usd" IS 'Current best YES ask, USD: buy_yes_usd, or 1 - sell_no_usd when that is missing.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_latest"."yes_mid_usd" IS 'Current YES mid price, USD: (yes_bid_usd + yes_ask_usd) / 2.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_latest"."yes_spread_usd" IS 'Current YES bid-ask spread, USD: yes_ask_usd - yes_bid_usd.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_latest"."implied_yes_probability" IS 'Current implied probability of YES, 0..1 (the YES mid).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_latest"."volume" IS 'Traded volume as last reported upstream (units undocumented, as received).';
--> statement-breakpoint


-- Point in time ------------------------------------------------------------------------------------
-- The row shape of the as-of functions, as a type so that its columns carry comments.
CREATE TYPE "analytics"."market_as_of" AS (
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
  volume numeric
);
--> statement-breakpoint
COMMENT ON TYPE "analytics"."market_as_of" IS 'A market as known at one instant: what analytics.price_as_of and analytics.prices_as_of return.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_as_of"."market_id" IS 'Market id.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_as_of"."as_of" IS 'The instant asked about (UTC).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_as_of"."status" IS 'Status in force at as_of: open or closed; null if no state had been observed by then.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_as_of"."result" IS 'Result known at as_of: yes, no, or null while unresolved.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_as_of"."settlement_time" IS 'Settlement time known at as_of (UTC); null while pending.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_as_of"."state_observed_at" IS 'When that status/result/settlement time was first observed (UTC), at or before as_of.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_as_of"."quote_observed_at" IS 'When the prices in force at as_of were first observed (UTC), at or before as_of; null if no price had been observed by then.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_as_of"."buy_yes_usd" IS 'Price to buy one YES contract (YES ask) in force at as_of, USD.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_as_of"."sell_yes_usd" IS 'Price received for selling one YES contract (YES bid) in force at as_of, USD.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_as_of"."buy_no_usd" IS 'Price to buy one NO contract in force at as_of, USD.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_as_of"."sell_no_usd" IS 'Price received for selling one NO contract in force at as_of, USD.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_as_of"."yes_bid_usd" IS 'Best YES bid in force at as_of, USD (sell_yes_usd, else 1 - buy_no_usd).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_as_of"."yes_ask_usd" IS 'Best YES ask in force at as_of, USD (buy_yes_usd, else 1 - sell_no_usd).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_as_of"."yes_mid_usd" IS 'YES mid price in force at as_of, USD.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_as_of"."yes_spread_usd" IS 'YES bid-ask spread in force at as_of, USD.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_as_of"."implied_yes_probability" IS 'Implied probability of YES at as_of, 0..1 (the YES mid).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_as_of"."volume" IS 'Traded volume reported with those prices (units undocumented, as received).';
--> statement-breakpoint
-- Returns only what was known at p_at (no valid_to, no later confirmation), so a backtest cannot
-- peek ahead. A set-returning SQL function that is STABLE, not STRICT and has no SET clause is
-- inlined into the calling query: a LATERAL join over many (market, instant) pairs plans as two
-- index probes per pair.
CREATE FUNCTION "analytics"."price_as_of"(p_market_id text, p_at timestamptz)
RETURNS SETOF "analytics"."market_as_of"
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
  SELECT p_market_id, p_at,
         s.status, s.result, s.settlement_time, s.valid_from,
         q.valid_from, q.buy_yes_usd, q.sell_yes_usd, q.buy_no_usd, q.sell_no_usd,
         q.yes_bid_usd, q.yes_ask_usd, q.yes_mid_usd, q.yes_spread_usd, q.implied_yes_probability, q.volume
  FROM (SELECT) AS one
  LEFT JOIN LATERAL (
    -- State rows are contiguous (a change closes one row and opens the next at the same
    -- instant), so the latest row started by p_at is the one in force at p_at.
    SELECT h.status, h.result, h.settlement_time, h.valid_from
      FROM prediction.market_state_history h
     WHERE h.market_id = p_market_id AND h.valid_from <= p_at
     ORDER BY h.valid_from DESC
     LIMIT 1
  ) s ON true
  LEFT JOIN LATERAL (
    SELECT ph.valid_from, ph.buy_yes_usd, ph.sell_yes_usd, ph.buy_no_usd, ph.sell_no_usd, ph.yes_bid_usd,
           ph.yes_ask_usd, ph.yes_mid_usd, ph.yes_spread_usd, ph.implied_yes_probability, ph.volume
      FROM analytics.price_history ph
     WHERE ph.market_id = p_market_id AND ph.valid_from <= p_at
     ORDER BY ph.valid_from DESC
     LIMIT 1
  ) q ON true
  WHERE s.valid_from IS NOT NULL OR q.valid_from IS NOT NULL
$$;
--> statement-breakpoint
COMMENT ON FUNCTION "analytics"."price_as_of"(text, timestamptz) IS 'One market as known at instant p_at: the latest prices (USD) and state (status, result, settlement time) observed at or before p_at; a change observed exactly at p_at counts. Returns one row (type analytics.market_as_of), or none if the market had not been observed by p_at. Nothing observed after p_at leaks in. Backtest join: FROM signals s LEFT JOIN LATERAL analytics.price_as_of(s.market_id, s.at) p ON true.';
--> statement-breakpoint
CREATE FUNCTION "analytics"."prices_as_of"(p_at timestamptz)
RETURNS SETOF "analytics"."market_as_of"
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
  SELECT a.*
  FROM prediction.markets m
  CROSS JOIN LATERAL analytics.price_as_of(m.market_id, p_at) a
$$;
--> statement-breakpoint
COMMENT ON FUNCTION "analytics"."prices_as_of"(timestamptz) IS 'Every market as known at instant p_at (the cross-section of a backtest universe): one analytics.market_as_of row per market observed at or before p_at.';
--> statement-breakpoint
-- For backtests driven from outside the database: send the (market, instant) pairs as two arrays
-- instead of loading them into a table first.
CREATE FUNCTION "analytics"."prices_as_of"(p_market_ids text[], p_ats timestamptz[])
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
  volume numeric
)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
  SELECT i.ordinal, i.market_id, i.at,
         a.status, a.result, a.settlement_time, a.state_observed_at, a.quote_observed_at,
         a.buy_yes_usd, a.sell_yes_usd, a.buy_no_usd, a.sell_no_usd, a.yes_bid_usd, a.yes_ask_usd,
         a.yes_mid_usd, a.yes_spread_usd, a.implied_yes_probability, a.volume
  FROM unnest(p_market_ids, p_ats) WITH ORDINALITY AS i(market_id, at, ordinal)
  LEFT JOIN LATERAL analytics.price_as_of(i.market_id, i.at) a ON true
  ORDER BY i.ordinal
$$;
--> statement-breakpoint
COMMENT ON FUNCTION "analytics"."prices_as_of"(text[], timestamptz[]) IS 'Point-in-time lookup of many (market, instant) pairs given as two parallel arrays: one row per pair, in input order (input_ordinal = 1-based position), with the columns of analytics.market_as_of; values are null where the market had not been observed by that instant.';
--> statement-breakpoint

-- Indexes ----------------------------------------------------------------------------------------
-- The as-of lookups need nothing new: the primary key (market_id, observed_at) answers them with
-- one backward index probe. A range of one market's history is another matter: the pipeline
-- writes in time order across markets, so a market's snapshots lie one per heap page, and 90 days
-- of a busy market cost thousands of page reads (bench/analytics.ts, 10M rows: p95 of a 90-day
-- hourly candle query 121 ms without this index, 48 ms with it). The included prices let those
-- reads come from the index alone: rather than a second index beside the primary key (one more
-- entry to write per price change), the primary key itself carries the prices (INCLUDE). They
-- never change after insert, so the updates that move last_observed_at stay HOT.
ALTER TABLE "prediction"."pricing_snapshots"
  DROP CONSTRAINT "pricing_snapshots_market_id_observed_at_pk",
  ADD CONSTRAINT "pricing_snapshots_market_id_observed_at_pk" PRIMARY KEY ("market_id", "observed_at")
    INCLUDE ("buy_yes_micro_usd", "sell_yes_micro_usd", "buy_no_micro_usd", "sell_no_micro_usd");
--> statement-breakpoint
COMMENT ON INDEX "prediction"."pricing_snapshots_market_id_observed_at_pk" IS 'Primary key; includes the prices for index-only range reads of a market''s history (analytics.candles).';
--> statement-breakpoint

-- Candles ----------------------------------------------------------------------------------------
-- Built from the quotes in force over each bucket, not from raw rows: under change-only storage a
-- bucket with no new row still had a price (the one carried in), so OHLC is: open = quote in force
-- at the bucket start, high/low over every quote in force during the bucket, close = quote in
-- force at its end. Each quote is cut at the bucket edges it crosses (one piece per overlap), so
-- the work is proportional to quotes + buckets, and the spread is averaged by time in force.
CREATE FUNCTION "analytics"."candles"(p_market_id text, p_interval interval, p_from timestamptz, p_to timestamptz)
RETURNS TABLE (
  bucket_start timestamptz,
  bucket_end timestamptz,
  open_yes_mid_usd numeric,
  high_yes_mid_usd numeric,
  low_yes_mid_usd numeric,
  close_yes_mid_usd numeric,
  avg_yes_spread_usd numeric,
  quote_changes integer,
  no_observation boolean
)
LANGUAGE plpgsql STABLE PARALLEL SAFE
AS $$
#variable_conflict use_column
DECLARE
  origin CONSTANT timestamptz := '1970-01-01 00:00:00+00';
  step interval;
  first_start timestamptz;
  last_end timestamptz;
BEGIN
  IF p_interval IS NULL OR p_interval < interval '1 minute' OR p_interval > interval '1 day' THEN
    RAISE EXCEPTION 'analytics.candles: the interval must be between 1 minute and 1 day, got %', p_interval
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF p_from IS NULL OR p_to IS NULL OR p_from >= p_to THEN
    RAISE EXCEPTION 'analytics.candles: need p_from < p_to, got [%, %)', p_from, p_to
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  -- As a plain number of seconds: timestamptz + '1 day' follows the session time zone's calendar
  -- (23- or 25-hour days at DST changes); buckets must be a fixed length in UTC.
  step := make_interval(secs => extract(epoch FROM p_interval));
  first_start := date_bin(step, p_from, origin);
  last_end := date_bin(step, p_to - interval '1 microsecond', origin) + step;

  RETURN QUERY
  WITH fetched AS (
    -- Only the price columns: an index-only scan of the primary key (it includes the prices), where a
    -- market's snapshots sit together (in the heap they are spread one per page).
    SELECT h.valid_from,
           lead(h.valid_from) OVER (ORDER BY h.valid_from) AS next_from,
           row_number() OVER (ORDER BY h.valid_from) AS quote_rank,
           h.yes_mid_usd,
           h.yes_spread_usd
      FROM analytics.price_history h
     WHERE h.market_id = p_market_id
       AND h.valid_from < last_end
       -- from the quote in force at first_start on
       AND h.valid_from >= coalesce(
             (SELECT max(s.observed_at) FROM prediction.pricing_snapshots s
               WHERE s.market_id = p_market_id AND s.observed_at <= first_start),
             '-infinity')
  ),
  quotes AS (
    SELECT f.valid_from,
           coalesce(f.next_from, 'infinity') AS valid_to,
           date_bin(step, f.valid_from, origin) AS first_bucket,
           f.quote_rank,
           f.yes_mid_usd,
           f.yes_spread_usd,
           -- A bucket in which a quote was first observed was observed. A bucket in which no quote
           -- starts was observed if the poll that last confirmed the quote carried through it came
           -- at or after its start: only those quotes need last_observed_at, from the heap.
           CASE WHEN coalesce(f.next_from, 'infinity')
                     >= greatest(date_bin(step, f.valid_from, origin) + step, first_start) + step THEN
             (SELECT s.last_observed_at FROM prediction.pricing_snapshots s
               WHERE s.market_id = p_market_id AND s.observed_at = f.valid_from)
           END AS last_observed_at
      FROM fetched f
  ),
  pieces AS (
    -- A quote inside one bucket is one piece; one that crosses bucket edges is cut at each.
    SELECT q.first_bucket AS piece_bucket, q.valid_from AS piece_start, q.valid_to AS piece_end,
           q.valid_from, q.last_observed_at, q.quote_rank, q.yes_mid_usd, q.yes_spread_usd
      FROM quotes q
     WHERE q.valid_to <= q.first_bucket + step
    UNION ALL
    SELECT g.piece_bucket, greatest(q.valid_from, g.piece_bucket), least(q.valid_to, g.piece_bucket + step),
           q.valid_from, q.last_observed_at, q.quote_rank, q.yes_mid_usd, q.yes_spread_usd
      FROM quotes q
     CROSS JOIN LATERAL generate_series(
             greatest(q.first_bucket, first_start),
             least(q.valid_to, last_end) - interval '1 microsecond',
             step) AS g(piece_bucket)
     WHERE q.valid_to > q.first_bucket + step
  ),
  per_bucket AS (
    SELECT p.piece_bucket,
           -- The quote in force at the bucket start; else (the market's first quote came later in
           -- the bucket) that first quote.
           coalesce(max(p.yes_mid_usd) FILTER (WHERE p.piece_start = p.piece_bucket),
                    max(p.yes_mid_usd) FILTER (WHERE p.quote_rank = 1)) AS open_mid,
           max(p.yes_mid_usd) AS high_mid,
           min(p.yes_mid_usd) AS low_mid,
           -- Quotes are contiguous, so exactly one piece reaches the bucket's end.
           max(p.yes_mid_usd) FILTER (WHERE p.piece_end = p.piece_bucket + step) AS close_mid,
           -- float8 for the weighting (numeric products cost more than the rest of the query);
           -- rounded well below a micro-dollar.
           round((sum(p.yes_spread_usd::float8 * date_part('epoch', p.piece_end - p.piece_start))
                  / nullif(sum(date_part('epoch', p.piece_end - p.piece_start)) FILTER (WHERE p.yes_spread_usd IS NOT NULL), 0)
                 )::numeric, 10) AS avg_spread,
           (count(*) FILTER (WHERE p.valid_from >= p.piece_bucket))::integer AS changes,
           bool_or(p.valid_from >= p.piece_bucket OR p.last_observed_at >= p.piece_bucket) AS observed
      FROM pieces p
     GROUP BY p.piece_bucket
  )
  SELECT b.b_start,
         b.b_start + step,
         pb.open_mid,
         pb.high_mid,
         pb.low_mid,
         pb.close_mid,
         pb.avg_spread,
         coalesce(pb.changes, 0),
         NOT coalesce(pb.observed, false)
    FROM generate_series(first_start, last_end - step, step) AS b(b_start)
    LEFT JOIN per_bucket pb ON pb.piece_bucket = b.b_start
   ORDER BY b.b_start;
END
$$;
--> statement-breakpoint
COMMENT ON FUNCTION "analytics"."candles"(text, interval, timestamptz, timestamptz) IS 'OHLC candles of one market''s YES mid price (USD) for any interval from 1 minute to 1 day. Buckets are aligned to multiples of the interval since 1970-01-01 UTC; every bucket overlapping [p_from, p_to) is returned, in time order, each computed over its full extent. Columns: bucket_start, bucket_end (exclusive); open_yes_mid_usd = mid in force at the bucket start (or of the market''s first quote, if that falls inside the bucket); high_yes_mid_usd / low_yes_mid_usd over all quotes in force during the bucket; close_yes_mid_usd = mid in force at its end (open and close are null when the quote in force then had no mid); avg_yes_spread_usd = YES spread averaged by time in force, USD; quote_changes = new quotes first observed in the bucket; no_observation = true when no poll confirmed any quote during the bucket (a polling gap, or before the first / after the latest observation): its OHLC is then carried forward from the last known quote (null before the first quote). Change-only storage keeps the first and last confirmation of each quote only, so an outage while prices stood still is not flagged here: see analytics.data_coverage.';
--> statement-breakpoint

-- Order books ------------------------------------------------------------------------------------
-- Upstream books hold bids only: `yes` levels are YES bids, `no` levels NO bids. A NO bid at p
-- cents is an offer to sell YES at 100 - p, so the YES asks are the NO bids mirrored.
CREATE VIEW "analytics"."orderbook_top" AS
SELECT
  s.market_id,
  s.snapshot_id,
  s.observed_at AS valid_from,
  (SELECT n.observed_at
     FROM prediction.orderbook_snapshots n
    WHERE n.market_id = s.market_id AND n.observed_at > s.observed_at
    ORDER BY n.observed_at
    LIMIT 1) AS valid_to,
  s.last_observed_at,
  s.is_null,
  b.best_yes_bid_cents,
  b.best_no_bid_cents,
  100 - b.best_no_bid_cents AS best_yes_ask_cents,
  (100 - b.best_no_bid_cents) - b.best_yes_bid_cents AS spread_cents,
  (b.best_yes_bid_cents + (100 - b.best_no_bid_cents)) * 0.5 AS mid_cents,
  (b.best_yes_bid_cents + (100 - b.best_no_bid_cents)) * 0.005 AS implied_yes_probability,
  d.yes_bid_depth_1c_contracts,
  d.yes_bid_depth_5c_contracts,
  d.yes_bid_depth_10c_contracts,
  d.yes_bid_total_contracts,
  d.yes_ask_depth_1c_contracts,
  d.yes_ask_depth_5c_contracts,
  d.yes_ask_depth_10c_contracts,
  d.yes_ask_total_contracts
FROM prediction.orderbook_snapshots s
CROSS JOIN LATERAL (
  SELECT max(l.price_cents) FILTER (WHERE l.side = 'yes') AS best_yes_bid_cents,
         max(l.price_cents) FILTER (WHERE l.side = 'no') AS best_no_bid_cents
    FROM prediction.orderbook_levels l
   WHERE l.market_id = s.market_id AND l.snapshot_id = s.snapshot_id
) b
CROSS JOIN LATERAL (
  SELECT coalesce(sum(l.size) FILTER (WHERE l.side = 'yes' AND l.price_cents >= b.best_yes_bid_cents - 1), 0) AS yes_bid_depth_1c_contracts,
         coalesce(sum(l.size) FILTER (WHERE l.side = 'yes' AND l.price_cents >= b.best_yes_bid_cents - 5), 0) AS yes_bid_depth_5c_contracts,
         coalesce(sum(l.size) FILTER (WHERE l.side = 'yes' AND l.price_cents >= b.best_yes_bid_cents - 10), 0) AS yes_bid_depth_10c_contracts,
         coalesce(sum(l.size) FILTER (WHERE l.side = 'yes'), 0) AS yes_bid_total_contracts,
         coalesce(sum(l.size) FILTER (WHERE l.side = 'no' AND l.price_cents >= b.best_no_bid_cents - 1), 0) AS yes_ask_depth_1c_contracts,
         coalesce(sum(l.size) FILTER (WHERE l.side = 'no' AND l.price_cents >= b.best_no_bid_cents - 5), 0) AS yes_ask_depth_5c_contracts,
         coalesce(sum(l.size) FILTER (WHERE l.side = 'no' AND l.price_cents >= b.best_no_bid_cents - 10), 0) AS yes_ask_depth_10c_contracts,
         coalesce(sum(l.size) FILTER (WHERE l.side = 'no'), 0) AS yes_ask_total_contracts
    FROM prediction.orderbook_levels l
   WHERE l.market_id = s.market_id AND l.snapshot_id = s.snapshot_id
) d;
--> statement-breakpoint
COMMENT ON VIEW "analytics"."orderbook_top" IS 'Top of book and depth of every stored order-book snapshot, from the YES side, valid over [valid_from, valid_to). Prices in cents of USD per contract (0..100). The YES ask side is the NO bids mirrored: YES ask = 100 - NO bid. Depth within N cents counts the contracts priced at most N cents worse than the best price of that side, best level included. Filter on market_id (and valid_from) for speed.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."orderbook_top"."market_id" IS 'Market id.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."orderbook_top"."snapshot_id" IS 'Snapshot id (prediction.orderbook_snapshots.snapshot_id); its levels are in analytics.orderbook_depth.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."orderbook_top"."valid_from" IS 'First observation of this book (UTC); in force from this instant, inclusive.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."orderbook_top"."valid_to" IS 'First observation of the next, different book (UTC), exclusive; null while this is the current book.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."orderbook_top"."last_observed_at" IS 'Latest observation that confirmed this book unchanged (UTC).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."orderbook_top"."is_null" IS 'True when the order-book endpoint answered null (no book): every price is null and every depth 0.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."orderbook_top"."best_yes_bid_cents" IS 'Best (highest) YES bid, cents (0..100); null when there is no YES bid.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."orderbook_top"."best_no_bid_cents" IS 'Best (highest) NO bid, cents (0..100); null when there is no NO bid.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."orderbook_top"."best_yes_ask_cents" IS 'Best (lowest) YES ask, cents: 100 - best_no_bid_cents.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."orderbook_top"."spread_cents" IS 'YES bid-ask spread, cents: best_yes_ask_cents - best_yes_bid_cents.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."orderbook_top"."mid_cents" IS 'YES mid price, cents: (best_yes_bid_cents + best_yes_ask_cents) / 2.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."orderbook_top"."implied_yes_probability" IS 'Implied probability of YES from the book, 0..1: mid_cents / 100.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."orderbook_top"."yes_bid_depth_1c_contracts" IS 'Contracts bid for YES within 1 cent of the best YES bid (price >= best - 1), best level included.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."orderbook_top"."yes_bid_depth_5c_contracts" IS 'Contracts bid for YES within 5 cents of the best YES bid (price >= best - 5).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."orderbook_top"."yes_bid_depth_10c_contracts" IS 'Contracts bid for YES within 10 cents of the best YES bid (price >= best - 10).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."orderbook_top"."yes_bid_total_contracts" IS 'All contracts bid for YES in the book.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."orderbook_top"."yes_ask_depth_1c_contracts" IS 'YES contracts offered within 1 cent of the best YES ask (ask <= best + 1, i.e. NO bids >= best NO bid - 1), best level included.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."orderbook_top"."yes_ask_depth_5c_contracts" IS 'YES contracts offered within 5 cents of the best YES ask (ask <= best + 5).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."orderbook_top"."yes_ask_depth_10c_contracts" IS 'YES contracts offered within 10 cents of the best YES ask (ask <= best + 10).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."orderbook_top"."yes_ask_total_contracts" IS 'All YES contracts offered in the book (the sum of the NO bids).';
--> statement-breakpoint
-- Partitioned by the YES-side expression itself (not by the stored side, its equivalent) so that
-- a filter on yes_side is pushed below the window into the index scan.
CREATE VIEW "analytics"."orderbook_depth" AS
SELECT
  l.market_id,
  l.snapshot_id,
  s.observed_at AS valid_from,
  v.yes_side,
  row_number() OVER w AS level_rank,
  v.yes_price_cents,
  first_value(l.price_cents) OVER w - l.price_cents AS distance_from_best_cents,
  l.size AS size_contracts,
  sum(l.size) OVER w AS cumulative_contracts,
  sum(l.size * v.yes_price_cents) OVER w * 0.01 AS cumulative_usd,
  round(sum(l.size * v.yes_price_cents) OVER w / nullif(sum(l.size) OVER w, 0), 6) AS average_price_cents,
  l.side AS book_side,
  l.price_cents AS book_price_cents
FROM prediction.orderbook_levels l
JOIN prediction.orderbook_snapshots s ON s.market_id = l.market_id AND s.snapshot_id = l.snapshot_id
CROSS JOIN LATERAL (
  SELECT CASE l.side WHEN 'yes' THEN 'bid' ELSE 'ask' END AS yes_side,
         CASE l.side WHEN 'yes' THEN l.price_cents ELSE 100 - l.price_cents END AS yes_price_cents
) v
-- Best first on both sides: the highest YES bid, and the highest NO bid (= the lowest YES ask).
WINDOW w AS (PARTITION BY l.market_id, l.snapshot_id, v.yes_side ORDER BY l.price_cents DESC
             ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW);
--> statement-breakpoint
COMMENT ON VIEW "analytics"."orderbook_depth" IS 'The price ladder of every order-book snapshot from the YES side, best level first, with running totals: on the ask side, cumulative_usd is what buying cumulative_contracts YES contracts costs by walking the book (fees excluded); on the bid side, what selling them yields. Filter on market_id and snapshot_id.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."orderbook_depth"."market_id" IS 'Market id.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."orderbook_depth"."snapshot_id" IS 'Snapshot id (see analytics.orderbook_top).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."orderbook_depth"."valid_from" IS 'First observation of the snapshot (UTC).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."orderbook_depth"."yes_side" IS 'bid: a YES bid (stored side yes); ask: a YES offer, i.e. a NO bid mirrored (stored side no).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."orderbook_depth"."level_rank" IS 'Position on its side, 1 = best (highest bid, lowest ask).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."orderbook_depth"."yes_price_cents" IS 'Price of one YES contract at this level, cents (0..100): the bid, or 100 - NO bid for an ask.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."orderbook_depth"."distance_from_best_cents" IS 'How much worse than the best price of its side this level is, cents (0 for the best level).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."orderbook_depth"."size_contracts" IS 'Contracts at this level (possibly fractional).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."orderbook_depth"."cumulative_contracts" IS 'Contracts from the best level through this one.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."orderbook_depth"."cumulative_usd" IS 'USD to buy (ask side) or received for selling (bid side) cumulative_contracts YES contracts at these levels: sum of size * yes_price_cents / 100.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."orderbook_depth"."average_price_cents" IS 'Volume-weighted average YES price of the levels from the best through this one, cents (6 decimals).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."orderbook_depth"."book_side" IS 'Side as stored upstream: yes (YES bids) or no (NO bids).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."orderbook_depth"."book_price_cents" IS 'Price as stored upstream, cents: the YES bid or the NO bid.';
--> statement-breakpoint
CREATE FUNCTION "analytics"."cost_to_buy_yes"(p_market_id text, p_contracts numeric, p_at timestamptz DEFAULT now())
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
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
  WITH book AS (
    SELECT s.market_id, s.snapshot_id, s.observed_at
      FROM prediction.orderbook_snapshots s
     WHERE s.market_id = p_market_id AND s.observed_at <= p_at
     ORDER BY s.observed_at DESC
     LIMIT 1
  ),
  -- On the base table, not through analytics.orderbook_depth: a join qual is not pushed below
  -- that view's window, so the view would rank every level of every book first.
  asks AS (
    SELECT 100 - l.price_cents AS yes_price_cents,
           l.size,
           row_number() OVER best_first AS level_rank,
           coalesce(sum(l.size) OVER (best_first ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS contracts_before
      FROM book b
      JOIN prediction.orderbook_levels l ON l.market_id = b.market_id AND l.snapshot_id = b.snapshot_id AND l.side = 'no'
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
    FROM book b CROSS JOIN totals t
$$;
--> statement-breakpoint
COMMENT ON FUNCTION "analytics"."cost_to_buy_yes"(text, numeric, timestamptz) IS 'Cost of buying p_contracts YES contracts at once by walking the YES asks (the NO bids mirrored) of the market''s order book in force at p_at (default now), fees excluded. One row, or none if no book had been observed by p_at. Columns: market_id, snapshot_id and book_observed_at of the book used; contracts_requested; contracts_filled (less than requested when the book is too thin); cost_usd for the filled contracts; average_price_cents (volume-weighted); best_ask_cents; worst_price_cents (last level touched); slippage_cents = average_price_cents - best_ask_cents; fully_filled.';
--> statement-breakpoint

-- Resolutions ------------------------------------------------------------------------------------
-- "Settled" means a result is known. We see a change only when we poll, so the moment the result
-- appeared upstream is bracketed by the last observation still without it and the first with it.
-- The last one is recovered from the state history (each row's valid_from is an observation) and
-- from the price snapshots (prices arrive with the market record, so their first and last
-- confirmations are observations of the market too); confirmations in between are not stored,
-- so it is a lower bound: the true last poll may be later.
CREATE VIEW "analytics"."market_resolutions" AS
SELECT
  m.market_id,
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
  pending.last_observed_at AS settled_last_pending_observed_at,
  st.settled_first_observed_at,
  extract(epoch FROM m.settlement_time - m.close_time) AS settlement_lag_seconds,
  extract(epoch FROM pending.last_observed_at - m.close_time) AS observed_settlement_lag_min_seconds,
  extract(epoch FROM st.settled_first_observed_at - m.close_time) AS observed_settlement_lag_max_seconds
FROM prediction.markets m
JOIN prediction.events e ON e.event_id = m.event_id
CROSS JOIN LATERAL (
  SELECT min(h.valid_from) FILTER (WHERE h.status = 'closed') AS closed_first_observed_at,
         min(h.valid_from) FILTER (WHERE h.settlement_time IS NOT NULL) AS settlement_time_first_observed_at,
         min(h.valid_from) FILTER (WHERE h.result IS NOT NULL) AS settled_first_observed_at
    FROM prediction.market_state_history h
   WHERE h.market_id = m.market_id
) st
CROSS JOIN LATERAL (
  SELECT greatest(
           (SELECT max(h.valid_from)
              FROM prediction.market_state_history h
             WHERE h.market_id = m.market_id AND h.valid_from < st.settled_first_observed_at),
           (SELECT CASE WHEN p.last_observed_at < st.settled_first_observed_at THEN p.last_observed_at ELSE p.observed_at END
              FROM prediction.pricing_snapshots p
             WHERE p.market_id = m.market_id AND p.observed_at < st.settled_first_observed_at
             ORDER BY p.observed_at DESC
             LIMIT 1)
         ) AS last_observed_at
) pending;
--> statement-breakpoint
COMMENT ON VIEW "analytics"."market_resolutions" IS 'One row per market ever seen: its close, result and settlement as reported upstream, when the pipeline first observed each of them, and the settlement lag, with the polling uncertainty on when the result appeared (between settled_last_pending_observed_at and settled_first_observed_at). Filter is_settled for resolved markets.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_resolutions"."market_id" IS 'Market id.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_resolutions"."event_id" IS 'Event the market belongs to.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_resolutions"."provider" IS 'Provider listing the market: kalshi, polymarket (others possible).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_resolutions"."category" IS 'Category of the market''s event; null if upstream gave none.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_resolutions"."title" IS 'Title of the market.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_resolutions"."status" IS 'Current status: open or closed.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_resolutions"."result" IS 'Current result: yes, no, or null while unresolved.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_resolutions"."is_settled" IS 'True when a result is known (result is not null).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_resolutions"."open_time" IS 'When trading opened (UTC), as reported upstream.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_resolutions"."close_time" IS 'When trading closes or closed (UTC), as reported upstream: the reference point of the lags.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_resolutions"."settlement_time" IS 'Settlement time as reported upstream (UTC); null while pending.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_resolutions"."first_seen_at" IS 'First observation of the market by the pipeline (UTC).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_resolutions"."closed_first_observed_at" IS 'First observation with status closed (UTC); null if never seen closed.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_resolutions"."settlement_time_first_observed_at" IS 'First observation carrying a settlement time (UTC); null if none yet.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_resolutions"."settled_last_pending_observed_at" IS 'Latest known observation still without a result, before settled_first_observed_at (UTC): the result appeared upstream after it. A lower bound (polls that only confirmed unchanged data are not all stored); null if the market was first seen already settled.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_resolutions"."settled_first_observed_at" IS 'First observation with a result (UTC): the result appeared upstream at or before it. Null while unresolved.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_resolutions"."settlement_lag_seconds" IS 'settlement_time - close_time as reported upstream, seconds (negative if settled before the scheduled close).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_resolutions"."observed_settlement_lag_min_seconds" IS 'Lower bound of how long after close_time the result appeared, from our polling: settled_last_pending_observed_at - close_time, seconds.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_resolutions"."observed_settlement_lag_max_seconds" IS 'Upper bound of how long after close_time the result appeared, from our polling: settled_first_observed_at - close_time, seconds.';
--> statement-breakpoint

-- Coverage ---------------------------------------------------------------------------------------
CREATE VIEW "analytics"."data_coverage" AS
SELECT
  c.run_id,
  r.job,
  r.status AS run_status,
  c.provider,
  c.category,
  c.started_at,
  c.finished_at,
  extract(epoch FROM c.finished_at - c.started_at) AS duration_seconds,
  c.pages,
  c.events_seen,
  c.complete,
  prev.started_at AS previous_complete_started_at,
  extract(epoch FROM c.started_at - prev.started_at) AS since_previous_complete_seconds
FROM prediction.crawl_coverage c
JOIN prediction.ingest_runs r ON r.run_id = c.run_id
LEFT JOIN LATERAL (
  SELECT p.started_at
    FROM prediction.crawl_coverage p
   WHERE p.provider = c.provider AND p.category = c.category AND p.complete AND p.started_at < c.started_at
   ORDER BY p.started_at DESC
   LIMIT 1
) prev ON true;
--> statement-breakpoint
COMMENT ON VIEW "analytics"."data_coverage" IS 'Which sync runs crawled which provider × category listing, when, and how completely: one row per crawl. since_previous_complete_seconds shows how long the listing went without a complete crawl; analytics.coverage_gaps(expected_period) lists the gaps longer than expected.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."data_coverage"."run_id" IS 'Sync run (prediction.ingest_runs.run_id).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."data_coverage"."job" IS 'Job of the run, e.g. sync.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."data_coverage"."run_status" IS 'Status of the whole run: running, succeeded, failed or aborted.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."data_coverage"."provider" IS 'Provider crawled: kalshi, polymarket, ...';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."data_coverage"."category" IS 'Category crawled: crypto, sports, politics, esports, culture, economics, tech.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."data_coverage"."started_at" IS 'When the crawl of this listing started (UTC).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."data_coverage"."finished_at" IS 'When it ended (UTC); null while running or if its process died.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."data_coverage"."duration_seconds" IS 'finished_at - started_at, seconds.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."data_coverage"."pages" IS 'Listing pages fetched and written.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."data_coverage"."events_seen" IS 'Events received in those pages (valid or not).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."data_coverage"."complete" IS 'True when the listing was paged to its end; false when the crawl stopped early (abort, failure).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."data_coverage"."previous_complete_started_at" IS 'Start of the previous complete crawl of the same provider × category (UTC); null for the first.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."data_coverage"."since_previous_complete_seconds" IS 'started_at - previous_complete_started_at, seconds: the crawl period actually achieved.';
--> statement-breakpoint
-- The expected period is a parameter: the schedule lives in the service's configuration, not here.
-- Gaps are measured start to start, like a schedule: a listing whose complete crawls start more
-- than p_expected_period apart has a gap; the last one stays open until p_to.
CREATE FUNCTION "analytics"."coverage_gaps"(p_expected_period interval, p_from timestamptz DEFAULT '-infinity', p_to timestamptz DEFAULT now())
RETURNS TABLE (
  provider text,
  category text,
  gap_from timestamptz,
  gap_to timestamptz,
  gap_seconds numeric,
  is_open boolean
)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
  WITH crawls AS (
    SELECT c.provider, c.category, c.started_at,
           lead(c.started_at) OVER (PARTITION BY c.provider, c.category ORDER BY c.started_at) AS next_started_at
      FROM prediction.crawl_coverage c
     WHERE c.complete AND c.started_at < p_to
  ),
  never_complete AS (
    -- Listings attempted but never crawled to the end: uncovered since their first attempt.
    SELECT c.provider, c.category, min(c.started_at) AS started_at
      FROM prediction.crawl_coverage c
     WHERE c.started_at < p_to
     GROUP BY c.provider, c.category
    HAVING NOT bool_or(c.complete)
  ),
  gaps AS (
    SELECT provider, category, started_at AS gap_from, next_started_at AS gap_to FROM crawls
    UNION ALL
    SELECT provider, category, started_at, NULL FROM never_complete
  )
  SELECT g.provider, g.category, g.gap_from, g.gap_to,
         extract(epoch FROM coalesce(g.gap_to, p_to) - g.gap_from),
         g.gap_to IS NULL
    FROM gaps g
   WHERE coalesce(g.gap_to, p_to) - g.gap_from > p_expected_period
     AND coalesce(g.gap_to, p_to) > p_from
   ORDER BY g.provider, g.category, g.gap_from
$$;
--> statement-breakpoint
COMMENT ON FUNCTION "analytics"."coverage_gaps"(interval, timestamptz, timestamptz) IS 'Gaps in the crawl coverage of each provider × category listing longer than p_expected_period, overlapping [p_from, p_to) (default: everything up to now). A gap runs from the start of a complete crawl to the start of the next complete one (gap_to; null and is_open = true when none came by p_to); gap_seconds is its length, measured to p_to when open. A listing attempted but never crawled completely is one open gap from its first attempt. Listings never attempted at all do not appear: compare with your configured providers and categories.';
--> statement-breakpoint
-- Works without crawl_coverage too (from the events and markets themselves), so it also
-- describes data written before the crawls were recorded.
CREATE VIEW "analytics"."data_freshness" AS
WITH ev AS (
  SELECT e.provider, e.category,
         count(*) AS events,
         count(*) FILTER (WHERE e.is_active) AS active_events,
         max(e.last_seen_at) AS events_last_seen_at
    FROM prediction.events e
   GROUP BY e.provider, e.category
),
mk AS (
  SELECT e.provider, e.category,
         count(*) AS markets,
         count(*) FILTER (WHERE m.status = 'open') AS open_markets,
         max(m.last_seen_at) AS markets_last_seen_at
    FROM prediction.markets m
    JOIN prediction.events e ON e.event_id = m.event_id
   GROUP BY e.provider, e.category
),
cc AS (
  SELECT DISTINCT ON (c.provider, c.category) c.provider, c.category, c.started_at, c.finished_at
    FROM prediction.crawl_coverage c
   WHERE c.complete
   ORDER BY c.provider, c.category, c.started_at DESC
),
listings AS (
  SELECT provider, category FROM ev
  UNION
  SELECT provider, category FROM prediction.crawl_coverage
)
SELECT
  k.provider,
  k.category,
  coalesce(ev.events, 0) AS events,
  coalesce(ev.active_events, 0) AS active_events,
  ev.events_last_seen_at,
  coalesce(mk.markets, 0) AS markets,
  coalesce(mk.open_markets, 0) AS open_markets,
  mk.markets_last_seen_at,
  cc.started_at AS last_complete_crawl_started_at,
  cc.finished_at AS last_complete_crawl_finished_at
FROM listings k
LEFT JOIN ev ON ev.provider = k.provider AND ev.category IS NOT DISTINCT FROM k.category
LEFT JOIN mk ON mk.provider = k.provider AND mk.category IS NOT DISTINCT FROM k.category
LEFT JOIN cc ON cc.provider = k.provider AND cc.category IS NOT DISTINCT FROM k.category;
--> statement-breakpoint
COMMENT ON VIEW "analytics"."data_freshness" IS 'Per provider × category: how many events and markets are stored, when any of them was last observed, and when the listing was last crawled completely. A quick health view for a dashboard.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."data_freshness"."provider" IS 'Provider: kalshi, polymarket, ...';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."data_freshness"."category" IS 'Category of the events (null for events upstream gave none).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."data_freshness"."events" IS 'Events stored (ever seen).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."data_freshness"."active_events" IS 'Events whose latest state is active.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."data_freshness"."events_last_seen_at" IS 'Latest observation of any of these events (UTC).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."data_freshness"."markets" IS 'Markets of these events stored (ever seen).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."data_freshness"."open_markets" IS 'Of those, markets currently open.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."data_freshness"."markets_last_seen_at" IS 'Latest observation of any of these markets (UTC).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."data_freshness"."last_complete_crawl_started_at" IS 'Start of the latest complete crawl of this listing (UTC); null if none recorded.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."data_freshness"."last_complete_crawl_finished_at" IS 'End of that crawl (UTC).';
