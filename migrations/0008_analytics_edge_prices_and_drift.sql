-- Tolerant ingestion, analyst side.
--
-- 1. Edge prices. The live service uses prices at the ends of the range as "nothing there": a
--    sellYes of 0 is no YES bid, a buyYes of 1,000,000 no YES ask, a sellNo of 0 no NO bid, a buyNo
--    of 1,000,000 no NO ask, and a closed market without quotes sends all four as 0
--    (docs/queries.md). Read as prices they pulled the mid of a one-sided market to 0 or 1 and
--    turned a closed market's empty quote into a 0.5 mid with a spread of -1. The YES bid and ask
--    now skip such a price, so mid, spread and implied probability are null when a side is
--    missing. The raw buy_*/sell_* columns stay as received, and nothing is clamped.
--    Only analytics.price_history computes the quote; market_latest, price_as_of, prices_as_of and
--    candles read it from there, so they follow.
-- 2. Volume units, as appended columns (views may only grow at the end: CREATE OR REPLACE VIEW
--    cannot rename or reorder columns, and the names are a public interface).
-- 3. Upstream shapes (prediction.upstream_shapes, created in 0007) and the view that shows how
--    they changed, analytics.upstream_drift.
-- One statement per breakpoint, as in 0004.

-- Price history ------------------------------------------------------------------------------
-- Same body as 0004 except the quote lateral and the appended volume_usd. A buy price of 0 is
-- skipped too: only the all-zero quote of a closed market sends it, and an ask of $0 is no offer.
CREATE OR REPLACE VIEW "analytics"."price_history" AS
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
  p.volume,
  p.volume AS volume_usd
FROM prediction.pricing_snapshots p
CROSS JOIN LATERAL (
  -- Selling YES equals buying NO at 1 - price: the other side fills in when one is missing,
  -- and a price that means "nothing there" counts as missing.
  SELECT coalesce(nullif(p.sell_yes_micro_usd, 0),
                  1000000 - nullif(nullif(p.buy_no_micro_usd, 1000000), 0)) * 0.000001 AS yes_bid_usd,
         coalesce(nullif(nullif(p.buy_yes_micro_usd, 1000000), 0),
                  1000000 - nullif(p.sell_no_micro_usd, 0)) * 0.000001 AS yes_ask_usd
) q;
--> statement-breakpoint
COMMENT ON VIEW "analytics"."price_history" IS 'One row per distinct set of prices of a market, valid over [valid_from, valid_to). Prices in USD per contract (a contract pays $1 if its side wins). The buy_*/sell_* columns are as received; the YES bid/ask, mid, spread and probability skip the prices that mean "nothing there" upstream (a sell price of 0 = no bid, a buy price of 1.0 = no ask, all four 0 = no quote on a closed market) and are null when a side is missing. Filter on market_id and valid_from for speed. The value at an instant t is the row with valid_from <= t < valid_to (see analytics.price_as_of).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."price_history"."buy_yes_usd" IS 'Price to buy one YES contract, USD (upstream buyYesPriceUsd × 0.000001), as received: the YES ask. 1.0 is the live service''s "no YES ask"; 0 on a closed market means no quote. yes_ask_usd takes both into account.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."price_history"."sell_yes_usd" IS 'Price received for selling one YES contract, USD (upstream sellYesPriceUsd × 0.000001), as received: the YES bid. 0 is the live service''s "no YES bid". yes_bid_usd takes it into account.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."price_history"."buy_no_usd" IS 'Price to buy one NO contract, USD (upstream buyNoPriceUsd × 0.000001), as received: the NO ask. 1.0 is the live service''s "no NO ask"; 0 on a closed market means no quote.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."price_history"."sell_no_usd" IS 'Price received for selling one NO contract, USD (upstream sellNoPriceUsd × 0.000001), as received: the NO bid. 0 is the live service''s "no NO bid".';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."price_history"."yes_bid_usd" IS 'Best YES bid, USD: sell_yes_usd, or else 1 - buy_no_usd (selling YES = buying NO). A sell_yes_usd of 0 (no bid) and a buy_no_usd of 1.0 or 0 (no ask) are skipped; null when neither gives a bid.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."price_history"."yes_ask_usd" IS 'Best YES ask, USD: buy_yes_usd, or else 1 - sell_no_usd (buying YES = selling NO). A buy_yes_usd of 1.0 or 0 (no ask) and a sell_no_usd of 0 (no bid) are skipped; null when neither gives an ask.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."price_history"."yes_mid_usd" IS 'YES mid price, USD: (yes_bid_usd + yes_ask_usd) / 2; null when either side is missing, rather than pulled toward 0 or 1.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."price_history"."yes_spread_usd" IS 'YES bid-ask spread, USD: yes_ask_usd - yes_bid_usd; null when either side is missing. Not clamped: a crossed quote gives a negative spread.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."price_history"."implied_yes_probability" IS 'Implied probability that the market resolves YES: the YES mid (a contract pays $1), normally 0..1; null when either side is missing. Not clamped.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."price_history"."volume_usd" IS 'Traded volume of the market, USD as received with the prices (pricing.volume): whole US dollars on the live service, e.g. 26003599 = $26,003,599. Same value as volume.';
--> statement-breakpoint

-- Latest state of every market -------------------------------------------------------------------
CREATE OR REPLACE VIEW "analytics"."market_latest" AS
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
  h.volume,
  h.volume_usd,
  e.volume_usd AS event_volume_micro_usd
FROM prediction.markets m
JOIN prediction.events e ON e.event_id = m.event_id
LEFT JOIN LATERAL (
  SELECT ph.valid_from, ph.last_observed_at, ph.buy_yes_usd, ph.sell_yes_usd, ph.buy_no_usd, ph.sell_no_usd,
         ph.yes_bid_usd, ph.yes_ask_usd, ph.yes_mid_usd, ph.yes_spread_usd, ph.implied_yes_probability, ph.volume,
         ph.volume_usd
    FROM analytics.price_history ph
   WHERE ph.market_id = m.market_id
   ORDER BY ph.valid_from DESC
   LIMIT 1
) h ON true;
--> statement-breakpoint
COMMENT ON VIEW "analytics"."market_latest" IS 'One row per market ever seen: its current status and result (as received), and its current prices in USD with the implied YES probability and spread. Price columns are null for a market never seen with prices; mid, spread and probability are null while a side of the quote is missing (see analytics.price_history).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_latest"."buy_yes_usd" IS 'Current price to buy one YES contract (YES ask), USD, as received: 1.0 means no YES ask; 0 on a closed market means no quote.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_latest"."sell_yes_usd" IS 'Current price received for selling one YES contract (YES bid), USD, as received: 0 means no YES bid.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_latest"."buy_no_usd" IS 'Current price to buy one NO contract (NO ask), USD, as received: 1.0 means no NO ask; 0 on a closed market means no quote.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_latest"."sell_no_usd" IS 'Current price received for selling one NO contract (NO bid), USD, as received: 0 means no NO bid.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_latest"."yes_bid_usd" IS 'Current best YES bid, USD: sell_yes_usd, or else 1 - buy_no_usd, skipping the prices that mean "nothing there" (a sell price of 0, a buy price of 1.0 or 0); null when neither gives a bid.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_latest"."yes_ask_usd" IS 'Current best YES ask, USD: buy_yes_usd, or else 1 - sell_no_usd, skipping the prices that mean "nothing there" (a buy price of 1.0 or 0, a sell price of 0); null when neither gives an ask.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_latest"."yes_mid_usd" IS 'Current YES mid price, USD: (yes_bid_usd + yes_ask_usd) / 2; null when either side is missing.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_latest"."yes_spread_usd" IS 'Current YES bid-ask spread, USD: yes_ask_usd - yes_bid_usd; null when either side is missing; not clamped.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_latest"."implied_yes_probability" IS 'Current implied probability of YES (the YES mid), normally 0..1; null when either side is missing; not clamped.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_latest"."volume_usd" IS 'Traded volume of the market as last reported with its prices, USD as received (pricing.volume: whole US dollars on the live service). Same value as volume.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_latest"."event_volume_micro_usd" IS 'Total traded volume of the market''s event as received (prediction.events.volume_usd, upstream volumeUsd): micro-USD on the live service (26003599000000 = $26,003,599; divide by 1e6 for USD). Spec-era senders gave USD.';
--> statement-breakpoint

-- Point in time ----------------------------------------------------------------------------------
-- analytics.price_as_of reads price_history, so its quote follows; the type documents it.
COMMENT ON COLUMN "analytics"."market_as_of"."buy_yes_usd" IS 'Price to buy one YES contract (YES ask) in force at as_of, USD, as received: 1.0 means no YES ask; 0 on a closed market means no quote.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_as_of"."sell_yes_usd" IS 'Price received for selling one YES contract (YES bid) in force at as_of, USD, as received: 0 means no YES bid.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_as_of"."buy_no_usd" IS 'Price to buy one NO contract in force at as_of, USD, as received: 1.0 means no NO ask; 0 on a closed market means no quote.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_as_of"."sell_no_usd" IS 'Price received for selling one NO contract in force at as_of, USD, as received: 0 means no NO bid.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_as_of"."yes_bid_usd" IS 'Best YES bid in force at as_of, USD (sell_yes_usd, else 1 - buy_no_usd, skipping a sell price of 0 and a buy price of 1.0 or 0); null when neither gives a bid.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_as_of"."yes_ask_usd" IS 'Best YES ask in force at as_of, USD (buy_yes_usd, else 1 - sell_no_usd, skipping a buy price of 1.0 or 0 and a sell price of 0); null when neither gives an ask.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_as_of"."yes_mid_usd" IS 'YES mid price in force at as_of, USD; null when either side is missing.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_as_of"."yes_spread_usd" IS 'YES bid-ask spread in force at as_of, USD; null when either side is missing; not clamped.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_as_of"."implied_yes_probability" IS 'Implied probability of YES at as_of (the YES mid), normally 0..1; null when either side is missing; not clamped.';
--> statement-breakpoint
COMMENT ON FUNCTION "analytics"."candles"(text, interval, timestamptz, timestamptz) IS 'OHLC candles of one market''s YES mid price (USD) for any interval from 1 minute to 1 day. Buckets are aligned to multiples of the interval since 1970-01-01 UTC; every bucket overlapping [p_from, p_to) is returned, in time order, each computed over its full extent. Columns: bucket_start, bucket_end (exclusive); open_yes_mid_usd = mid in force at the bucket start (or of the market''s first quote, if that falls inside the bucket); high_yes_mid_usd / low_yes_mid_usd over all quotes in force during the bucket; close_yes_mid_usd = mid in force at its end (open and close are null when the quote in force then had no mid: a side missing, see analytics.price_history; high and low skip such quotes); avg_yes_spread_usd = YES spread averaged by time in force, over the quotes that have one, USD; quote_changes = new quotes first observed in the bucket; no_observation = true when no poll confirmed any quote during the bucket (a polling gap, or before the first / after the latest observation): its OHLC is then carried forward from the last known quote (null before the first quote). Change-only storage keeps the first and last confirmation of each quote only, so an outage while prices stood still is not flagged here: see analytics.data_coverage.';
--> statement-breakpoint

-- Upstream shapes --------------------------------------------------------------------------------
COMMENT ON TABLE "prediction"."upstream_shapes" IS 'Shapes of the upstream records: one row per endpoint × fingerprint (the set of key paths with their JSON types), with one example and when and how often it was received. A new shape of an endpoint means the service changed what it sends; analytics.upstream_drift compares each shape with the previous one.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."upstream_shapes"."endpoint" IS 'Endpoint label the records came from, e.g. /events, /events#markets, /orderbook/{marketId}.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."upstream_shapes"."fingerprint" IS 'Identifier of the shape, computed by the pipeline from its paths: equal shapes, equal fingerprints.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."upstream_shapes"."paths" IS 'The key paths of the shape with their JSON types, sorted, e.g. pricing.volume:number, result:null.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."upstream_shapes"."example" IS 'One record of this shape as received, from the observation that created the row (made jsonb-safe; truncated if huge); never replaced.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."upstream_shapes"."records_seen" IS 'Records of this shape received, over all runs.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."upstream_shapes"."first_seen_at" IS 'Earliest time a record of this shape was received (UTC).';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."upstream_shapes"."last_seen_at" IS 'Latest time a record of this shape was received (UTC); never moved back by a replayed older observation.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."upstream_shapes"."first_run_id" IS 'Run that received the shape at first_seen_at (ingest_runs.run_id); null outside a run.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."upstream_shapes"."last_run_id" IS 'Run that received it at last_seen_at (ingest_runs.run_id); null outside a run.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."ingest_runs"."records_by_endpoint" IS 'Records per endpoint label by outcome, e.g. {"/events": {"accepted": 40, "accepted_with_drift": 2, "rejected": 1}}: accepted = stored without drift, accepted_with_drift = stored and tagged with drift, rejected = quarantined in rejected_records.';
--> statement-breakpoint
-- The previous shape is the one first seen before (fingerprint breaks a tie, so the order is
-- stable). The window partitions by endpoint only, so a filter on endpoint is pushed below it.
CREATE VIEW "analytics"."upstream_drift" AS
SELECT
  s.endpoint,
  s.fingerprint,
  s.first_seen_at,
  s.last_seen_at,
  s.records_seen,
  s.last_seen_at = max(s.last_seen_at) OVER (PARTITION BY s.endpoint) AS is_current,
  s.paths,
  CASE WHEN s.previous_paths IS NOT NULL THEN
    ARRAY(SELECT a.path FROM unnest(s.paths) AS a(path) EXCEPT SELECT b.path FROM unnest(s.previous_paths) AS b(path) ORDER BY 1)
  END AS paths_added,
  CASE WHEN s.previous_paths IS NOT NULL THEN
    ARRAY(SELECT b.path FROM unnest(s.previous_paths) AS b(path) EXCEPT SELECT a.path FROM unnest(s.paths) AS a(path) ORDER BY 1)
  END AS paths_removed,
  s.example
FROM (
  SELECT u.*, lag(u.paths) OVER (PARTITION BY u.endpoint ORDER BY u.first_seen_at, u.fingerprint) AS previous_paths
    FROM prediction.upstream_shapes u
) s;
--> statement-breakpoint
COMMENT ON VIEW "analytics"."upstream_drift" IS 'How the records of each upstream endpoint changed shape: one row per endpoint × shape (fingerprint) ever received, with when and how often, whether the endpoint still sends it, and the key paths it added and removed relative to the endpoint''s previous shape (in first_seen_at order). Order by endpoint, first_seen_at for the timeline.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."upstream_drift"."endpoint" IS 'Endpoint label the records came from, e.g. /events, /events#markets, /orderbook/{marketId}.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."upstream_drift"."fingerprint" IS 'Identifier of the shape (prediction.upstream_shapes.fingerprint).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."upstream_drift"."first_seen_at" IS 'Earliest time a record of this shape was received (UTC).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."upstream_drift"."last_seen_at" IS 'Latest time a record of this shape was received (UTC).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."upstream_drift"."records_seen" IS 'Records of this shape received, over all runs.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."upstream_drift"."is_current" IS 'True for the endpoint''s most recently seen shape(s): last_seen_at equals the latest last_seen_at of the endpoint (shapes received in the same batch are all current).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."upstream_drift"."paths" IS 'The key paths of the shape with their JSON types, sorted, e.g. pricing.volume:number.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."upstream_drift"."paths_added" IS 'Paths of this shape that the endpoint''s previous shape (by first_seen_at) lacked, sorted; a path whose type changed appears here with its new type. Null for the endpoint''s first shape.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."upstream_drift"."paths_removed" IS 'Paths of the endpoint''s previous shape (by first_seen_at) that this one lacks, sorted; a path whose type changed appears here with its old type. Null for the endpoint''s first shape.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."upstream_drift"."example" IS 'One record of this shape as received (jsonb-safe; truncated if huge).';
--> statement-breakpoint
-- The default privileges of 0005 cover objects created by the role that ran it; granting
-- explicitly also covers a migration run by another role.
GRANT SELECT ON "prediction"."upstream_shapes", "analytics"."upstream_drift" TO prediction_reader;
