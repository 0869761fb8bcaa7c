CREATE TABLE "prediction"."trade_polls" (
	"poll_id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "prediction"."trade_polls_poll_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"run_id" bigint,
	"polled_at" timestamp with time zone NOT NULL,
	"trades_seen" integer NOT NULL,
	"trades_new" integer NOT NULL,
	"covers_from" timestamp with time zone NOT NULL,
	"covers_to" timestamp with time zone NOT NULL,
	"gap_before" boolean NOT NULL
);
--> statement-breakpoint
CREATE TABLE "prediction"."trades" (
	"market_id" text NOT NULL,
	"traded_at" timestamp with time zone NOT NULL,
	"trade_id" text NOT NULL,
	"event_id" text,
	"action" text NOT NULL,
	"side" text NOT NULL,
	"price_micro_usd" numeric NOT NULL,
	"amount_micro_usd" numeric NOT NULL,
	"owner_pubkey" text,
	"observed_at" timestamp with time zone NOT NULL,
	"drift" text[] DEFAULT '{}'::text[] NOT NULL,
	"raw" jsonb NOT NULL,
	CONSTRAINT "trades_market_id_traded_at_trade_id_pk" PRIMARY KEY("market_id","traded_at","trade_id")
) PARTITION BY RANGE ("traded_at");
--> statement-breakpoint
CREATE INDEX "trade_polls_polled_at_idx" ON "prediction"."trade_polls" USING btree ("polled_at");--> statement-breakpoint
CREATE INDEX "trades_traded_at_idx" ON "prediction"."trades" USING btree ("traded_at");--> statement-breakpoint
-- Hand-written from here: prediction.trades is partitioned by month of traded_at (above) like the
-- other history, so the month upkeep, retention and the analytics learn of it.
COMMENT ON TABLE "prediction"."trades" IS 'Fills of the service''s trade feed (GET /trades), one row per trade however many polls saw it. Partitioned by month of traded_at. Which spans of time the polls saw whole is in analytics.trade_coverage.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."trades"."trade_id" IS 'The feed''s id, e.g. order-2357571 (its number is a counter shared with other record kinds, not a trade sequence).';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."trades"."traded_at" IS 'When the trade was made (the feed''s timestamp, UTC).';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."trades"."action" IS 'buy or sell, as received (another value is stored and tagged in drift).';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."trades"."side" IS 'yes or no: the outcome traded, as received (another value is stored and tagged in drift).';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."trades"."price_micro_usd" IS 'Price paid per contract of the traded side, micro-USD (169998 = $0.169998).';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."trades"."amount_micro_usd" IS 'Amount of the trade, micro-USD.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."trades"."observed_at" IS 'When the first poll that carried the trade arrived.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."trades"."raw" IS 'The feed''s row as received.';
--> statement-breakpoint
COMMENT ON TABLE "prediction"."trade_polls" IS 'One row per poll of the trade feed: the span of time it saw whole (covers_from to covers_to) and whether trades before it may be missing (gap_before). Read through analytics.trade_coverage.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."trades"."market_id" IS 'Market traded (prediction.markets.market_id, when that market was seen).';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."trades"."event_id" IS 'Event of the market, as the feed sent it.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."trades"."owner_pubkey" IS 'Wallet that traded, as received.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."trades"."drift" IS 'Tags of tolerated deviations seen on the row, e.g. trade_action_unknown.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."trade_polls"."poll_id" IS 'Poll number, in the order the polls were recorded.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."trade_polls"."run_id" IS 'The run that polled (prediction.ingest_runs.run_id); no foreign key, so old runs can be pruned on their own.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."trade_polls"."polled_at" IS 'When the feed''s answer arrived.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."trade_polls"."trades_seen" IS 'Trades of the answer that could be read (quarantined rows not counted).';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."trade_polls"."trades_new" IS 'Of those, the trades no earlier poll had stored.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."trade_polls"."covers_from" IS 'From this instant to covers_to every trade of the feed was seen: the previous poll''s covers_to when this poll joined it, else the oldest trade of the answer.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."trade_polls"."covers_to" IS 'When the polls answer arrived (= polled_at).';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."trade_polls"."gap_before" IS 'True when trades between the previous poll''s covers_to and covers_from may be missing: none of the answer''s rows had been stored and the answer was full (20 rows); also for the first poll.';
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "prediction"."ensure_month_partitions"(p_from timestamptz, p_to timestamptz)
RETURNS integer
LANGUAGE plpgsql
AS $$
DECLARE
  v_month timestamp;
  v_created integer := 0;
  v_months integer;
BEGIN
  IF p_from IS NULL OR p_to IS NULL THEN
    RETURN 0;
  END IF;
  v_month := date_trunc('month', p_from AT TIME ZONE 'UTC');
  v_months := (extract(year FROM p_to AT TIME ZONE 'UTC') - extract(year FROM v_month)) * 12
            + extract(month FROM p_to AT TIME ZONE 'UTC') - extract(month FROM v_month) + 1;
  IF v_months > 12 THEN
    RAISE EXCEPTION 'ensure_month_partitions: % to % spans % months, more than 12 in one call', p_from, p_to, v_months
      USING ERRCODE = 'invalid_parameter_value',
            HINT = 'An observation time that far from the others is a wrong clock: check the host''s time.';
  END IF;
  WHILE v_month <= date_trunc('month', p_to AT TIME ZONE 'UTC') LOOP
    -- fillfactor 90 leaves room for the change-only confirmations (last_observed_at) to stay HOT (0001);
    -- trades are never updated.
    v_created := v_created
      + prediction.create_month_partition('prediction.pricing_snapshots', v_month, 90)::integer
      + prediction.create_month_partition('prediction.orderbook_snapshots', v_month, 90)::integer
      + prediction.create_month_partition('prediction.market_state_history', v_month, 100)::integer
      + prediction.create_month_partition('prediction.trades', v_month, 100)::integer;
    v_month := v_month + interval '1 month';
  END LOOP;
  RETURN v_created;
END
$$;
--> statement-breakpoint
COMMENT ON FUNCTION "prediction"."ensure_month_partitions"(timestamptz, timestamptz) IS 'Creates the monthly partitions of every time-partitioned table (pricing_snapshots, orderbook_snapshots, market_state_history, trades) for the UTC months from p_from to p_to that do not exist yet, at most 12 months in one call (invalid_parameter_value beyond). Returns how many it created. The pipeline calls it ahead of time and before each write.';
--> statement-breakpoint
SELECT prediction.create_month_partition('prediction.trades', m.month, 100)
  FROM (SELECT DISTINCT date_trunc('month', p.range_start AT TIME ZONE 'UTC') AS month
          FROM prediction.month_partitions('prediction.pricing_snapshots') p
         WHERE p.range_start IS NOT NULL) m;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "prediction"."retention_candidates"(p_horizon timestamptz)
RETURNS TABLE ("table_name" text, "partition" regclass, "range_start" timestamptz, "range_end" timestamptz)
LANGUAGE plpgsql STABLE
AS $$
DECLARE
  r record;
  v_in_force boolean;
BEGIN
  FOR r IN
    SELECT t.name, m.partition, m.range_start, m.range_end
      FROM unnest(array['pricing_snapshots', 'orderbook_snapshots', 'market_state_history', 'trades']) AS t(name)
     CROSS JOIN LATERAL prediction.month_partitions(format('prediction.%I', t.name)::regclass) m
     WHERE m.range_end <= p_horizon
     ORDER BY m.range_start, t.name
  LOOP
    IF r.name = 'market_state_history' THEN
      -- A state that began in this month and is still in force at the horizon is what the market
      -- looked like after it: its month stays.
      EXECUTE format('SELECT EXISTS (SELECT 1 FROM %s WHERE valid_to IS NULL OR valid_to > $1)', r.partition)
        INTO v_in_force USING p_horizon;
      CONTINUE WHEN v_in_force;
    END IF;
    table_name := r.name;
    partition := r.partition;
    range_start := r.range_start;
    range_end := r.range_end;
    RETURN NEXT;
  END LOOP;
END
$$;
--> statement-breakpoint
COMMENT ON FUNCTION "prediction"."retention_candidates"(timestamptz) IS 'The partitions that retention with horizon p_horizon drops, oldest first: those of pricing_snapshots, orderbook_snapshots and trades that end at or before p_horizon, and those of market_state_history none of whose states is still in force at p_horizon.';
--> statement-breakpoint
CREATE VIEW "analytics"."trade_coverage" AS
SELECT p.poll_id, p.run_id, p.polled_at, p.covers_from, p.covers_to, p.gap_before, p.trades_seen, p.trades_new
  FROM prediction.trade_polls p;
--> statement-breakpoint
COMMENT ON VIEW "analytics"."trade_coverage" IS 'One row per poll of the trade feed. Every trade made from covers_from to covers_to was seen by that poll; gap_before is true when trades between the previous poll''s covers_to and this covers_from may be missing (the feed holds only its latest rows, and more came between two polls), and for the first poll. A time inside no poll''s span was not looked at: no trades there means nothing.';
--> statement-breakpoint
CREATE FUNCTION "analytics"."trade_candles"(p_market_id text, p_interval interval, p_from timestamptz, p_to timestamptz)
RETURNS TABLE (
  bucket_start timestamptz,
  bucket_end timestamptz,
  open_yes_price_usd numeric,
  high_yes_price_usd numeric,
  low_yes_price_usd numeric,
  close_yes_price_usd numeric,
  volume_usd numeric,
  trades integer,
  vwap_yes_price_usd numeric
)
LANGUAGE plpgsql STABLE PARALLEL SAFE
AS $$
#variable_conflict use_column
DECLARE
  origin CONSTANT timestamptz := '1970-01-01 00:00:00+00';
  step interval;
BEGIN
  IF p_interval IS NULL OR p_interval < interval '1 minute' OR p_interval > interval '1 day' THEN
    RAISE EXCEPTION 'analytics.trade_candles: the interval must be between 1 minute and 1 day, got %', p_interval
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF p_from IS NULL OR p_to IS NULL OR p_from >= p_to THEN
    RAISE EXCEPTION 'analytics.trade_candles: need p_from < p_to, got [%, %)', p_from, p_to
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  -- A fixed length in UTC, as analytics.candles: '1 day' would follow the session zone's calendar.
  step := make_interval(secs => extract(epoch FROM p_interval));
  RETURN QUERY
  WITH priced AS (
    SELECT date_bin(step, t.traded_at, origin) AS bucket,
           t.traded_at,
           t.trade_id,
           CASE t.side WHEN 'yes' THEN t.price_micro_usd / 1000000
                       WHEN 'no' THEN 1 - t.price_micro_usd / 1000000 END AS yes_price,
           t.amount_micro_usd / 1000000 AS amount
      FROM prediction.trades t
     WHERE t.market_id = p_market_id
       AND t.traded_at >= date_bin(step, p_from, origin)
       AND t.traded_at < p_to
       AND t.side IN ('yes', 'no')
  )
  SELECT p.bucket,
         p.bucket + step,
         (array_agg(p.yes_price ORDER BY p.traded_at, p.trade_id))[1],
         max(p.yes_price),
         min(p.yes_price),
         (array_agg(p.yes_price ORDER BY p.traded_at DESC, p.trade_id DESC))[1],
         sum(p.amount),
         count(*)::integer,
         CASE WHEN sum(p.amount) > 0 THEN sum(p.yes_price * p.amount) / sum(p.amount) END
    FROM priced p
   GROUP BY p.bucket
   ORDER BY p.bucket;
END
$$;
--> statement-breakpoint
COMMENT ON FUNCTION "analytics"."trade_candles"(text, interval, timestamptz, timestamptz) IS 'Candles of one market from its trades, for an interval from 1 minute to 1 day, buckets aligned to multiples of the interval since 1970-01-01 UTC, in time order; only buckets overlapping [p_from, p_to) that hold a trade are returned (whether a quiet bucket was looked at is in analytics.trade_coverage). Prices are YES prices in USD (1 - price for a NO trade; trades of another side are left out): open and close are the first and last trade''s, high and low the extremes; volume_usd sums the trades'' amounts; trades counts them; vwap_yes_price_usd weighs each price by its amount.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."trade_coverage"."poll_id" IS 'Poll number.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."trade_coverage"."run_id" IS 'The run that polled (prediction.ingest_runs.run_id).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."trade_coverage"."polled_at" IS 'When the feed''s answer arrived.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."trade_coverage"."trades_seen" IS 'Trades of the answer that could be read.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."trade_coverage"."covers_from" IS 'From this instant on every trade of the feed was seen: the previous poll''s covers_to when this poll joined it, else the oldest trade of the answer.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."trade_coverage"."covers_to" IS 'When the poll''s answer arrived.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."trade_coverage"."gap_before" IS 'True when trades made between the previous poll and this one may be missing: none of its rows had been stored before and the feed''s answer was full (20 rows); also for the first poll.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."trade_coverage"."trades_new" IS 'Trades of the answer that no earlier poll had stored.';
--> statement-breakpoint
GRANT SELECT ON "prediction"."trades", "prediction"."trade_polls", "analytics"."trade_coverage" TO prediction_reader;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION "analytics"."trade_candles"(text, interval, timestamptz, timestamptz) TO prediction_reader;
