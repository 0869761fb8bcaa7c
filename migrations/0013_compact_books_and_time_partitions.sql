-- Storage for scale (docs/scaling.md):
--
-- 1. Compact order books. A snapshot's levels move into its own row as fixed-point integer arrays
--    (price_units, size_units, with a decimal scale each), or exact numeric arrays for a book whose
--    values do not fit 32 bits. prediction.orderbook_levels becomes a view with the columns the
--    table had. prediction.book_levels() is the one decoder: the view, analytics.orderbook_top,
--    analytics.orderbook_depth and analytics.cost_to_buy_yes all read levels through it.
-- 2. Time partitions. pricing_snapshots and orderbook_snapshots (by month of observed_at) and
--    market_state_history (by month of valid_from) become range-partitioned tables. No default
--    partition: the pipeline creates months ahead and before it writes
--    (prediction.ensure_month_partitions), attaching them under SHARE UPDATE EXCLUSIVE so a reader's
--    open transaction never blocks it. event_state_history stays one table: it is a reference table
--    on Citus (scripts/citus/distribute.sql), which cannot be partitioned, and holds a few rows per event.
-- 3. Retention. prediction.dropped_partitions records every partition the retention setting drops;
--    analytics.history_horizons, analytics.price_as_of (history_absent) and analytics.data_coverage
--    (history_absent) say that data before the horizon is absent instead of showing it as unchanged.
--
-- Existing data is kept: each table is renamed, recreated partitioned under its name, copied, and
-- its views are pointed at the new table by CREATE OR REPLACE with their previous text (keeping
-- grants and comments); comments move from the old columns. One statement per breakpoint.

CREATE TABLE "prediction"."dropped_partitions" (
	"table_name" text NOT NULL,
	"partition_name" text NOT NULL,
	"range_start" timestamp with time zone NOT NULL,
	"range_end" timestamp with time zone NOT NULL,
	"row_count" bigint NOT NULL,
	"retention_months" integer NOT NULL,
	"dropped_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "dropped_partitions_table_name_range_start_pk" PRIMARY KEY("table_name","range_start")
);
--> statement-breakpoint
COMMENT ON TABLE "prediction"."dropped_partitions" IS 'Every partition dropped by the retention setting (PREDICTION_RETENTION_MONTHS): its table, its time range and how many rows went. The latest range_end of a table is its horizon: data before it is absent (analytics.history_horizons).';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."dropped_partitions"."table_name" IS 'The partitioned table, e.g. pricing_snapshots.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."dropped_partitions"."partition_name" IS 'The dropped partition, e.g. pricing_snapshots_2026_01.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."dropped_partitions"."range_start" IS 'Start of the partition''s range (UTC), inclusive.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."dropped_partitions"."range_end" IS 'End of the partition''s range (UTC), exclusive.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."dropped_partitions"."row_count" IS 'Rows the partition held when it was dropped.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."dropped_partitions"."retention_months" IS 'The retention setting (months kept) that dropped it.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."dropped_partitions"."dropped_at" IS 'When it was dropped.';
--> statement-breakpoint

-- Partition helpers ------------------------------------------------------------------------------

CREATE SCHEMA "prediction_partitions";
--> statement-breakpoint
COMMENT ON SCHEMA "prediction_partitions" IS 'The monthly partitions of the time-partitioned tables of prediction, out of the way of tools that list tables. Read their parents (prediction.pricing_snapshots, …): a query on a time range reads only its months.';
--> statement-breakpoint
CREATE FUNCTION "prediction"."create_month_partition"(p_parent regclass, p_month timestamp, p_fillfactor integer)
RETURNS boolean
LANGUAGE plpgsql
AS $$
DECLARE
  v_table text := (SELECT c.relname FROM pg_class c WHERE c.oid = p_parent);
  v_name text := v_table || '_' || to_char(p_month, 'YYYY_MM');
  v_start text := to_char(date_trunc('month', p_month), 'YYYY-MM-DD') || ' 00:00:00+00';
  v_end text := to_char(date_trunc('month', p_month) + interval '1 month', 'YYYY-MM-DD') || ' 00:00:00+00';
BEGIN
  IF to_regclass(format('prediction_partitions.%I', v_name)) IS NOT NULL THEN
    RETURN false;
  END IF;
  -- Creators queue here (the lock conflicts with itself), readers and writers do not.
  EXECUTE format('LOCK TABLE %s IN SHARE UPDATE EXCLUSIVE MODE', p_parent);
  IF to_regclass(format('prediction_partitions.%I', v_name)) IS NOT NULL THEN
    RETURN false;
  END IF;
  -- CREATE TABLE ... PARTITION OF would take ACCESS EXCLUSIVE on the parent, and wait for every
  -- reader; a plain table attached afterwards needs only SHARE UPDATE EXCLUSIVE.
  EXECUTE format('CREATE TABLE prediction_partitions.%I (LIKE %s INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING STORAGE) WITH (fillfactor = %s)',
                 v_name, p_parent, p_fillfactor);
  EXECUTE format('ALTER TABLE %s ATTACH PARTITION prediction_partitions.%I FOR VALUES FROM (%L) TO (%L)', p_parent, v_name, v_start, v_end);
  EXECUTE format('COMMENT ON TABLE prediction_partitions.%I IS %L', v_name,
                 format('Partition of %s for %s (UTC); read the parent.', p_parent, to_char(p_month, 'YYYY-MM')));
  RETURN true;
END
$$;
--> statement-breakpoint
COMMENT ON FUNCTION "prediction"."create_month_partition"(regclass, timestamp, integer) IS 'Creates and attaches the partition of p_parent for the UTC month holding p_month (prediction_partitions.<table>_YYYY_MM) unless it exists. Returns whether it created one.';
--> statement-breakpoint
CREATE FUNCTION "prediction"."ensure_month_partitions"(p_from timestamptz, p_to timestamptz)
RETURNS integer
LANGUAGE plpgsql
AS $$
DECLARE
  v_month timestamp;
  v_created integer := 0;
BEGIN
  IF p_from IS NULL OR p_to IS NULL THEN
    RETURN 0;
  END IF;
  v_month := date_trunc('month', p_from AT TIME ZONE 'UTC');
  WHILE v_month <= date_trunc('month', p_to AT TIME ZONE 'UTC') LOOP
    -- fillfactor 90 leaves room for the change-only confirmations (last_observed_at) to stay HOT (0001).
    v_created := v_created
      + prediction.create_month_partition('prediction.pricing_snapshots', v_month, 90)::integer
      + prediction.create_month_partition('prediction.orderbook_snapshots', v_month, 90)::integer
      + prediction.create_month_partition('prediction.market_state_history', v_month, 100)::integer;
    v_month := v_month + interval '1 month';
  END LOOP;
  RETURN v_created;
END
$$;
--> statement-breakpoint
COMMENT ON FUNCTION "prediction"."ensure_month_partitions"(timestamptz, timestamptz) IS 'Creates the monthly partitions of every time-partitioned table (pricing_snapshots, orderbook_snapshots, market_state_history) for the UTC months from p_from to p_to that do not exist yet. Returns how many it created. The pipeline calls it ahead of time and before each write.';
--> statement-breakpoint
CREATE FUNCTION "prediction"."copy_comments"(p_from regclass, p_to regclass)
RETURNS void
LANGUAGE plpgsql
AS $$
DECLARE
  r record;
BEGIN
  EXECUTE format('COMMENT ON %s %s IS %L', CASE (SELECT relkind FROM pg_class WHERE oid = p_to) WHEN 'v' THEN 'VIEW' ELSE 'TABLE' END,
                 p_to, obj_description(p_from, 'pg_class'));
  FOR r IN SELECT a.attname, col_description(p_from, a.attnum) AS comment
             FROM pg_attribute a WHERE a.attrelid = p_from AND a.attnum > 0 AND NOT a.attisdropped LOOP
    IF r.comment IS NOT NULL THEN
      EXECUTE format('COMMENT ON COLUMN %s.%I IS %L', p_to, r.attname, r.comment);
    END IF;
  END LOOP;
END
$$;
--> statement-breakpoint

-- Fixed-point order-book levels ------------------------------------------------------------------

CREATE FUNCTION "prediction"."encode_levels"(
  p_price_cents numeric[], p_sizes numeric[],
  OUT price_scale smallint, OUT size_scale smallint, OUT price_units integer[], OUT size_units integer[],
  OUT exact_price_cents numeric[], OUT exact_sizes numeric[])
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
  WITH bounds AS (
    SELECT coalesce(max(scale(u.p)), 0) AS ps, coalesce(max(scale(u.z)), 0) AS zs,
           coalesce(max(abs(u.p)), 0) AS pmax, coalesce(max(abs(u.z)), 0) AS zmax
      FROM unnest(p_price_cents, p_sizes) AS u(p, z)
  ),
  fit AS (
    SELECT b.ps, b.zs,
           b.ps <= 9 AND b.zs <= 9
             AND b.pmax * 10::numeric ^ b.ps <= 2147483647 AND b.zmax * 10::numeric ^ b.zs <= 2147483647 AS fits
      FROM bounds b
  )
  SELECT CASE WHEN f.fits THEN f.ps::smallint END,
         CASE WHEN f.fits THEN f.zs::smallint END,
         CASE WHEN f.fits THEN coalesce((SELECT array_agg((u.p * 10::numeric ^ f.ps)::integer ORDER BY u.i)
                                           FROM unnest(p_price_cents) WITH ORDINALITY AS u(p, i)), '{}') END,
         CASE WHEN f.fits THEN coalesce((SELECT array_agg((u.z * 10::numeric ^ f.zs)::integer ORDER BY u.i)
                                           FROM unnest(p_sizes) WITH ORDINALITY AS u(z, i)), '{}') END,
         CASE WHEN NOT f.fits THEN p_price_cents END,
         CASE WHEN NOT f.fits THEN p_sizes END
    FROM fit f
$$;
--> statement-breakpoint
COMMENT ON FUNCTION "prediction"."encode_levels"(numeric[], numeric[]) IS 'The stored form of a book''s levels (YES bids best first, then NO bids best first): integers in units of 10^-scale with the smallest scale that keeps every value exact, or the numerics themselves when a value needs more than 9 decimals or 32 bits. prediction.book_levels() reverses it.';
--> statement-breakpoint
CREATE FUNCTION "prediction"."book_levels"(
  p_yes_levels integer, p_price_scale smallint, p_size_scale smallint, p_price_units integer[], p_size_units integer[],
  p_exact_price_cents numeric[], p_exact_sizes numeric[])
RETURNS TABLE (level_index integer, side text, price_cents numeric, size numeric)
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
  -- trim_scale: the values come back as they went in (canonical decimals: 45.5, not 45.50).
  -- unnest, not generate_series over the length: the planner guesses 10 rows for an unnest of a
  -- column and 1,000 for a generate_series, which made a scan of many books look costly enough
  -- to be JIT-compiled (half a second of compilation for a 100 ms query).
  SELECT u.i::integer,
         CASE WHEN u.i <= p_yes_levels THEN 'yes' ELSE 'no' END,
         coalesce(u.exact_price, trim_scale(u.price_unit * f.price_factor)),
         coalesce(u.exact_size, trim_scale(u.size_unit * f.size_factor))
    FROM (SELECT 10::numeric ^ (-p_price_scale) AS price_factor, 10::numeric ^ (-p_size_scale) AS size_factor) f
   CROSS JOIN unnest(p_price_units, p_size_units, p_exact_price_cents, p_exact_sizes)
              WITH ORDINALITY AS u(price_unit, size_unit, exact_price, exact_size, i)
$$;
--> statement-breakpoint
COMMENT ON FUNCTION "prediction"."book_levels"(integer, smallint, smallint, integer[], integer[], numeric[], numeric[]) IS 'The levels of one stored order book as rows (level_index from 1, YES bids best first then NO bids best first), from the columns of prediction.orderbook_snapshots: FROM prediction.orderbook_snapshots s CROSS JOIN LATERAL prediction.book_levels(s.yes_levels, s.price_scale, s.size_scale, s.price_units, s.size_units, s.exact_price_cents, s.exact_sizes) l.';
--> statement-breakpoint

-- pricing_snapshots ------------------------------------------------------------------------------

ALTER TABLE "prediction"."pricing_snapshots" RENAME TO "pricing_snapshots_unpartitioned";
--> statement-breakpoint
ALTER INDEX "prediction"."pricing_snapshots_market_id_observed_at_pk" RENAME TO "pricing_snapshots_unpartitioned_pk";
--> statement-breakpoint
CREATE TABLE "prediction"."pricing_snapshots" (
	"market_id" text NOT NULL,
	"observed_at" timestamp with time zone NOT NULL,
	"last_observed_at" timestamp with time zone NOT NULL,
	"buy_yes_micro_usd" numeric,
	"buy_no_micro_usd" numeric,
	"sell_yes_micro_usd" numeric,
	"sell_no_micro_usd" numeric,
	"volume" numeric,
	CONSTRAINT "pricing_snapshots_market_id_observed_at_pk" PRIMARY KEY ("market_id", "observed_at")
	  INCLUDE ("buy_yes_micro_usd", "sell_yes_micro_usd", "buy_no_micro_usd", "sell_no_micro_usd")
) PARTITION BY RANGE ("observed_at");
--> statement-breakpoint
SELECT prediction.copy_comments('prediction.pricing_snapshots_unpartitioned', 'prediction.pricing_snapshots');
--> statement-breakpoint
COMMENT ON INDEX "prediction"."pricing_snapshots_market_id_observed_at_pk" IS 'Primary key; includes the prices for index-only range reads of a market''s history (analytics.candles).';
--> statement-breakpoint

-- market_state_history ---------------------------------------------------------------------------

ALTER TABLE "prediction"."market_state_history" RENAME TO "market_state_history_unpartitioned";
--> statement-breakpoint
ALTER INDEX "prediction"."market_state_history_market_id_valid_from_pk" RENAME TO "market_state_history_unpartitioned_pk";
--> statement-breakpoint
ALTER INDEX "prediction"."market_state_history_current_idx" RENAME TO "market_state_history_unpartitioned_current_idx";
--> statement-breakpoint
ALTER TABLE "prediction"."market_state_history_unpartitioned" RENAME CONSTRAINT "market_state_history_interval_check" TO "market_state_history_unpartitioned_interval_check";
--> statement-breakpoint
CREATE TABLE "prediction"."market_state_history" (
	"market_id" text NOT NULL,
	"status" text,
	"result" text,
	"settlement_time" timestamp with time zone,
	"valid_from" timestamp with time zone NOT NULL,
	"valid_to" timestamp with time zone,
	CONSTRAINT "market_state_history_market_id_valid_from_pk" PRIMARY KEY ("market_id", "valid_from"),
	CONSTRAINT "market_state_history_interval_check" CHECK ("valid_to" IS NULL OR "valid_to" > "valid_from")
) PARTITION BY RANGE ("valid_from");
--> statement-breakpoint
CREATE INDEX "market_state_history_current_idx" ON "prediction"."market_state_history" USING btree ("market_id") WHERE "valid_to" IS NULL;
--> statement-breakpoint
SELECT prediction.copy_comments('prediction.market_state_history_unpartitioned', 'prediction.market_state_history');
--> statement-breakpoint

-- orderbook_snapshots (levels inside) ------------------------------------------------------------

ALTER TABLE "prediction"."orderbook_snapshots" RENAME TO "orderbook_snapshots_unpartitioned";
--> statement-breakpoint
ALTER INDEX "prediction"."orderbook_snapshots_market_id_snapshot_id_pk" RENAME TO "orderbook_snapshots_unpartitioned_pk";
--> statement-breakpoint
ALTER INDEX "prediction"."orderbook_snapshots_market_observed_idx" RENAME TO "orderbook_snapshots_unpartitioned_observed_idx";
--> statement-breakpoint
ALTER SEQUENCE "prediction"."orderbook_snapshots_snapshot_id_seq" RENAME TO "orderbook_snapshots_unpartitioned_snapshot_id_seq";
--> statement-breakpoint
ALTER TABLE "prediction"."orderbook_levels" RENAME TO "orderbook_levels_unpartitioned";
--> statement-breakpoint
ALTER INDEX "prediction"."orderbook_levels_market_id_snapshot_id_side_price_cents_pk" RENAME TO "orderbook_levels_unpartitioned_pk";
--> statement-breakpoint
CREATE SEQUENCE "prediction"."orderbook_snapshots_snapshot_id_seq" AS bigint;
--> statement-breakpoint
-- Ids go on from where the identity stopped, so no id is ever handed out twice.
SELECT setval('prediction.orderbook_snapshots_snapshot_id_seq',
              greatest((SELECT last_value FROM prediction.orderbook_snapshots_unpartitioned_snapshot_id_seq),
                       (SELECT coalesce(max(snapshot_id), 0) FROM prediction.orderbook_snapshots_unpartitioned), 1));
--> statement-breakpoint
CREATE TABLE "prediction"."orderbook_snapshots" (
	"snapshot_id" bigint DEFAULT nextval('prediction.orderbook_snapshots_snapshot_id_seq') NOT NULL,
	"market_id" text NOT NULL,
	"observed_at" timestamp with time zone NOT NULL,
	"last_observed_at" timestamp with time zone NOT NULL,
	"yes_levels" integer NOT NULL,
	"no_levels" integer NOT NULL,
	"content_hash" text NOT NULL,
	"is_null" boolean NOT NULL,
	"price_scale" smallint,
	"size_scale" smallint,
	"price_units" integer[],
	"size_units" integer[],
	"exact_price_cents" numeric[],
	"exact_sizes" numeric[],
	CONSTRAINT "orderbook_snapshots_market_id_observed_at_pk" PRIMARY KEY ("market_id", "observed_at"),
	-- Exactly one form of the levels, with as many entries as the book has levels.
	CONSTRAINT "orderbook_snapshots_levels_check" CHECK (
	  CASE WHEN "price_units" IS NOT NULL
	       THEN "exact_price_cents" IS NULL AND "exact_sizes" IS NULL AND "price_scale" IS NOT NULL AND "size_scale" IS NOT NULL
	            AND coalesce(cardinality("price_units"), 0) = "yes_levels" + "no_levels"
	            AND coalesce(cardinality("size_units"), 0) = "yes_levels" + "no_levels"
	       ELSE "exact_price_cents" IS NOT NULL AND "size_units" IS NULL
	            AND cardinality("exact_price_cents") = "yes_levels" + "no_levels"
	            AND cardinality("exact_sizes") = "yes_levels" + "no_levels"
	  END)
) PARTITION BY RANGE ("observed_at");
--> statement-breakpoint
ALTER SEQUENCE "prediction"."orderbook_snapshots_snapshot_id_seq" OWNED BY "prediction"."orderbook_snapshots"."snapshot_id";
--> statement-breakpoint
SELECT prediction.copy_comments('prediction.orderbook_snapshots_unpartitioned', 'prediction.orderbook_snapshots');
--> statement-breakpoint
COMMENT ON TABLE "prediction"."orderbook_snapshots" IS 'Change-only order-book history: one row per distinct book of a market, levels included, first observed at observed_at and last confirmed at last_observed_at. Read the levels as rows through prediction.orderbook_levels. Partitioned by month of observed_at.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."orderbook_snapshots"."price_scale" IS 'Decimal places of price_units: a level''s price is price_units[i] × 10^-price_scale cents. Null when the book is stored in exact_price_cents.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."orderbook_snapshots"."size_scale" IS 'Decimal places of size_units: a level''s size is size_units[i] × 10^-size_scale contracts. Null when the book is stored in exact_sizes.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."orderbook_snapshots"."price_units" IS 'Every level''s price as an integer (see price_scale): the yes_levels YES bids best first, then the no_levels NO bids best first.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."orderbook_snapshots"."size_units" IS 'Every level''s size as an integer (see size_scale), in the order of price_units.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."orderbook_snapshots"."exact_price_cents" IS 'The prices in cents, exactly, for a book with a value that does not fit price_units (more than 9 decimals or 32 bits); null otherwise.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."orderbook_snapshots"."exact_sizes" IS 'The sizes, exactly, for a book stored in exact_price_cents; null otherwise.';
--> statement-breakpoint
CREATE VIEW "prediction"."orderbook_levels" AS
SELECT s.market_id, s.snapshot_id, l.side, l.price_cents, l.size
  FROM prediction.orderbook_snapshots s
 CROSS JOIN LATERAL prediction.book_levels(s.yes_levels, s.price_scale, s.size_scale, s.price_units, s.size_units,
                                           s.exact_price_cents, s.exact_sizes) l;
--> statement-breakpoint
SELECT prediction.copy_comments('prediction.orderbook_levels_unpartitioned', 'prediction.orderbook_levels');
--> statement-breakpoint
COMMENT ON VIEW "prediction"."orderbook_levels" IS 'Price levels of every order-book snapshot, one row each (a view over prediction.orderbook_snapshots since 0013, with the columns the table had). Filter on market_id and snapshot_id.';
--> statement-breakpoint

-- Months for the existing data and the next two, then the data -----------------------------------

SELECT prediction.ensure_month_partitions(
  least((SELECT min(observed_at) FROM prediction.pricing_snapshots_unpartitioned),
        (SELECT min(observed_at) FROM prediction.orderbook_snapshots_unpartitioned),
        (SELECT min(valid_from) FROM prediction.market_state_history_unpartitioned),
        now()),
  now() + interval '2 months');
--> statement-breakpoint
INSERT INTO prediction.pricing_snapshots
SELECT market_id, observed_at, last_observed_at, buy_yes_micro_usd, buy_no_micro_usd, sell_yes_micro_usd, sell_no_micro_usd, volume
  FROM prediction.pricing_snapshots_unpartitioned
 ORDER BY observed_at, market_id;
--> statement-breakpoint
INSERT INTO prediction.market_state_history
SELECT market_id, status, result, settlement_time, valid_from, valid_to
  FROM prediction.market_state_history_unpartitioned
 ORDER BY valid_from, market_id;
--> statement-breakpoint
INSERT INTO prediction.orderbook_snapshots
  (snapshot_id, market_id, observed_at, last_observed_at, yes_levels, no_levels, content_hash, is_null,
   price_scale, size_scale, price_units, size_units, exact_price_cents, exact_sizes)
SELECT s.snapshot_id, s.market_id, s.observed_at, s.last_observed_at, s.yes_levels, s.no_levels, s.content_hash, s.is_null,
       e.price_scale, e.size_scale, e.price_units, e.size_units, e.exact_price_cents, e.exact_sizes
  FROM prediction.orderbook_snapshots_unpartitioned s
 CROSS JOIN LATERAL (
   -- 'yes' sorts after 'no': descending puts the YES side first, each side best (highest) first.
   SELECT array_agg(l.price_cents ORDER BY l.side DESC, l.price_cents DESC) AS price_cents,
          array_agg(l.size ORDER BY l.side DESC, l.price_cents DESC) AS sizes
     FROM prediction.orderbook_levels_unpartitioned l
    WHERE l.market_id = s.market_id AND l.snapshot_id = s.snapshot_id
 ) lv
 CROSS JOIN LATERAL prediction.encode_levels(coalesce(lv.price_cents, '{}'), coalesce(lv.sizes, '{}')) e
 ORDER BY s.observed_at, s.market_id;
--> statement-breakpoint
-- Autovacuum never analyzes a partitioned parent, and the copied partitions have no statistics yet.
ANALYZE "prediction"."pricing_snapshots", "prediction"."orderbook_snapshots", "prediction"."market_state_history";
--> statement-breakpoint

-- The views, on the new tables -------------------------------------------------------------------
CREATE OR REPLACE VIEW "analytics"."price_history" AS
 SELECT p.market_id,
    p.observed_at AS valid_from,
    ( SELECT n.observed_at
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
    (q.yes_bid_usd + q.yes_ask_usd) * 0.5 AS implied_yes_probability,
    p.volume,
    p.volume AS volume_usd
   FROM prediction.pricing_snapshots p
     CROSS JOIN LATERAL ( SELECT COALESCE(NULLIF(p.sell_yes_micro_usd, 0::numeric), 1000000::numeric - NULLIF(NULLIF(p.buy_no_micro_usd, 1000000::numeric), 0::numeric)) * 0.000001 AS yes_bid_usd,
            COALESCE(NULLIF(NULLIF(p.buy_yes_micro_usd, 1000000::numeric), 0::numeric), 1000000::numeric - NULLIF(p.sell_no_micro_usd, 0::numeric)) * 0.000001 AS yes_ask_usd) q;
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
    pending.last_observed_at AS settled_last_pending_observed_at,
    st.settled_first_observed_at,
    EXTRACT(epoch FROM m.settlement_time - m.close_time) AS settlement_lag_seconds,
    EXTRACT(epoch FROM pending.last_observed_at - m.close_time) AS observed_settlement_lag_min_seconds,
    EXTRACT(epoch FROM st.settled_first_observed_at - m.close_time) AS observed_settlement_lag_max_seconds
   FROM prediction.markets m
     JOIN prediction.events e ON e.event_id = m.event_id
     CROSS JOIN LATERAL ( SELECT min(h.valid_from) FILTER (WHERE h.status = 'closed'::text) AS closed_first_observed_at,
            min(h.valid_from) FILTER (WHERE h.settlement_time IS NOT NULL) AS settlement_time_first_observed_at,
            min(h.valid_from) FILTER (WHERE h.result IS NOT NULL) AS settled_first_observed_at
           FROM prediction.market_state_history h
          WHERE h.market_id = m.market_id) st
     CROSS JOIN LATERAL ( SELECT GREATEST(( SELECT max(h.valid_from) AS max
                   FROM prediction.market_state_history h
                  WHERE h.market_id = m.market_id AND h.valid_from < st.settled_first_observed_at), ( SELECT
                        CASE
                            WHEN p.last_observed_at < st.settled_first_observed_at THEN p.last_observed_at
                            ELSE p.observed_at
                        END AS observed_at
                   FROM prediction.pricing_snapshots p
                  WHERE p.market_id = m.market_id AND p.observed_at < st.settled_first_observed_at
                  ORDER BY p.observed_at DESC
                 LIMIT 1)) AS last_observed_at) pending;
--> statement-breakpoint
-- Same columns and answers as 0004's, from the levels in the snapshot row itself: a join back to
-- prediction.orderbook_levels would look the snapshot up again for every snapshot.
CREATE OR REPLACE VIEW "analytics"."orderbook_top" AS
SELECT
  s.market_id,
  s.snapshot_id,
  s.observed_at AS valid_from,
  (SELECT n.observed_at FROM prediction.orderbook_snapshots n
    WHERE n.market_id = s.market_id AND n.observed_at > s.observed_at
    ORDER BY n.observed_at LIMIT 1) AS valid_to,
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
    FROM prediction.book_levels(s.yes_levels, s.price_scale, s.size_scale, s.price_units, s.size_units,
                                s.exact_price_cents, s.exact_sizes) l
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
    FROM prediction.book_levels(s.yes_levels, s.price_scale, s.size_scale, s.price_units, s.size_units,
                                s.exact_price_cents, s.exact_sizes) l
) d;
--> statement-breakpoint
CREATE OR REPLACE VIEW "analytics"."orderbook_depth" AS
SELECT
  s.market_id,
  s.snapshot_id,
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
FROM prediction.orderbook_snapshots s
CROSS JOIN LATERAL prediction.book_levels(s.yes_levels, s.price_scale, s.size_scale, s.price_units, s.size_units,
                                          s.exact_price_cents, s.exact_sizes) l
CROSS JOIN LATERAL (
  SELECT CASE l.side WHEN 'yes' THEN 'bid' ELSE 'ask' END AS yes_side,
         CASE l.side WHEN 'yes' THEN l.price_cents ELSE 100 - l.price_cents END AS yes_price_cents
) v
WINDOW w AS (PARTITION BY s.market_id, s.snapshot_id, v.yes_side ORDER BY l.price_cents DESC
             ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW);
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
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
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
    FROM book b CROSS JOIN totals t
$$;
--> statement-breakpoint
DROP TABLE "prediction"."orderbook_levels_unpartitioned";
--> statement-breakpoint
DROP TABLE "prediction"."orderbook_snapshots_unpartitioned";
--> statement-breakpoint
DROP TABLE "prediction"."pricing_snapshots_unpartitioned";
--> statement-breakpoint
DROP TABLE "prediction"."market_state_history_unpartitioned";
--> statement-breakpoint
DROP FUNCTION "prediction"."copy_comments"(regclass, regclass);
--> statement-breakpoint

-- Retention horizons in the as-of and coverage answers -------------------------------------------

CREATE VIEW "analytics"."history_horizons" AS
SELECT d.table_name,
       max(d.range_end) AS horizon,
       count(*)::integer AS partitions_dropped,
       sum(d.row_count)::bigint AS rows_dropped,
       max(d.dropped_at) AS last_dropped_at
  FROM prediction.dropped_partitions d
 GROUP BY d.table_name;
--> statement-breakpoint
COMMENT ON VIEW "analytics"."history_horizons" IS 'Per history table whose old months the retention setting dropped: the horizon before which its data is absent (not unchanged: absent). No row: nothing dropped, history complete since the first observation.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."history_horizons"."table_name" IS 'pricing_snapshots, orderbook_snapshots or market_state_history.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."history_horizons"."horizon" IS 'Data observed before this instant (UTC) was dropped.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."history_horizons"."partitions_dropped" IS 'Monthly partitions dropped so far.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."history_horizons"."rows_dropped" IS 'Rows they held.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."history_horizons"."last_dropped_at" IS 'When the latest was dropped.';
--> statement-breakpoint
ALTER TYPE "analytics"."market_as_of" ADD ATTRIBUTE "history_absent" boolean;
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_as_of"."history_absent" IS 'True when retention dropped what was known at as_of (as_of before the horizon of analytics.history_horizons, or a quote first observed before it): the other values are then null as unknown, not as unobserved or unchanged.';
--> statement-breakpoint
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
    -- With no quote at or after the horizon, the one in force may have been dropped: known for a
    -- market first seen before the horizon.
    SELECT h.horizon IS NOT NULL
           AND (p_at < h.horizon
                OR (q.valid_from IS NULL
                    AND EXISTS (SELECT 1 FROM prediction.markets m WHERE m.market_id = p_market_id AND m.first_seen_at < h.horizon)))
           AS absent
  ) a
  WHERE s.valid_from IS NOT NULL OR q.valid_from IS NOT NULL OR a.absent
$$;
--> statement-breakpoint
COMMENT ON FUNCTION "analytics"."price_as_of"(text, timestamptz) IS 'One market as known at instant p_at: the latest prices (USD) and state (status, result, settlement time) observed at or before p_at; a change observed exactly at p_at counts. Returns one row (type analytics.market_as_of), or none if the market had not been observed by p_at. Nothing observed after p_at leaks in. Where retention dropped the data (history_absent), the row says so and its values are null. Backtest join: FROM signals s LEFT JOIN LATERAL analytics.price_as_of(s.market_id, s.at) p ON true.';
--> statement-breakpoint
DROP FUNCTION "analytics"."prices_as_of"(text[], timestamptz[]);
--> statement-breakpoint
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
  volume numeric,
  history_absent boolean
)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
  SELECT i.ordinal, i.market_id, i.at,
         a.status, a.result, a.settlement_time, a.state_observed_at, a.quote_observed_at,
         a.buy_yes_usd, a.sell_yes_usd, a.buy_no_usd, a.sell_no_usd, a.yes_bid_usd, a.yes_ask_usd,
         a.yes_mid_usd, a.yes_spread_usd, a.implied_yes_probability, a.volume, coalesce(a.history_absent, false)
  FROM unnest(p_market_ids, p_ats) WITH ORDINALITY AS i(market_id, at, ordinal)
  LEFT JOIN LATERAL analytics.price_as_of(i.market_id, i.at) a ON true
  ORDER BY i.ordinal
$$;
--> statement-breakpoint
COMMENT ON FUNCTION "analytics"."prices_as_of"(text[], timestamptz[]) IS 'Point-in-time lookup of many (market, instant) pairs given as two parallel arrays: one row per pair, in input order (input_ordinal = 1-based position), with the columns of analytics.market_as_of; values are null where the market had not been observed by that instant, or where retention dropped the data (history_absent true).';
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION "analytics"."prices_as_of"(text[], timestamptz[]) TO prediction_reader;
--> statement-breakpoint
CREATE OR REPLACE VIEW "analytics"."data_coverage" AS
 SELECT c.run_id,
    r.job,
    r.status AS run_status,
    c.provider,
    c.category,
    c.started_at,
    c.finished_at,
    EXTRACT(epoch FROM c.finished_at - c.started_at) AS duration_seconds,
    c.pages,
    c.events_seen,
    c.complete,
    prev.started_at AS previous_complete_started_at,
    EXTRACT(epoch FROM c.started_at - prev.started_at) AS since_previous_complete_seconds,
    coalesce(c.started_at < (SELECT max(d.range_end) FROM prediction.dropped_partitions d
                              WHERE d.table_name = 'pricing_snapshots'), false) AS history_absent
   FROM prediction.crawl_coverage c
     JOIN prediction.ingest_runs r ON r.run_id = c.run_id
     LEFT JOIN LATERAL ( SELECT p.started_at
           FROM prediction.crawl_coverage p
          WHERE p.provider = c.provider AND p.category = c.category AND p.complete AND p.started_at < c.started_at
          ORDER BY p.started_at DESC
         LIMIT 1) prev ON true;
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."data_coverage"."history_absent" IS 'True when this crawl started before the retention horizon (analytics.history_horizons): the prices it observed were dropped, so its coverage says nothing about the price history still stored.';
--> statement-breakpoint

-- Retention ---------------------------------------------------------------------------------------

CREATE FUNCTION "prediction"."drop_partitions_before"(p_horizon timestamptz, p_retention_months integer)
RETURNS SETOF "prediction"."dropped_partitions"
LANGUAGE plpgsql
AS $$
DECLARE
  r record;
  v_in_force boolean;
  v_rows bigint;
  v_dropped prediction.dropped_partitions;
BEGIN
  FOR r IN
    SELECT parent.relname AS table_name, child.oid AS child, child.relname AS partition_name, b.range_start, b.range_end
      FROM pg_inherits i
      JOIN pg_class parent ON parent.oid = i.inhparent
      JOIN pg_namespace pn ON pn.oid = parent.relnamespace
      JOIN pg_class child ON child.oid = i.inhrelid
     CROSS JOIN LATERAL (
       SELECT substring(pg_get_expr(child.relpartbound, child.oid) FROM 'FROM \(''([^'']+)''\)')::timestamptz AS range_start,
              substring(pg_get_expr(child.relpartbound, child.oid) FROM 'TO \(''([^'']+)''\)')::timestamptz AS range_end
     ) b
     WHERE pn.nspname = 'prediction' AND parent.relname IN ('pricing_snapshots', 'orderbook_snapshots', 'market_state_history')
       AND b.range_end <= p_horizon
     ORDER BY b.range_start, parent.relname
  LOOP
    IF r.table_name = 'market_state_history' THEN
      -- A state that began in this month and is still in force at the horizon is what the market
      -- looked like after it: its month stays.
      EXECUTE format('SELECT EXISTS (SELECT 1 FROM %s WHERE valid_to IS NULL OR valid_to > $1)', r.child::regclass)
        INTO v_in_force USING p_horizon;
      CONTINUE WHEN v_in_force;
    END IF;
    EXECUTE format('SELECT count(*) FROM %s', r.child::regclass) INTO v_rows;
    INSERT INTO prediction.dropped_partitions (table_name, partition_name, range_start, range_end, row_count, retention_months)
    VALUES (r.table_name, r.partition_name, r.range_start, r.range_end, v_rows, p_retention_months)
    RETURNING * INTO v_dropped;
    EXECUTE format('DROP TABLE %s', r.child::regclass);
    RETURN NEXT v_dropped;
  END LOOP;
END
$$;
--> statement-breakpoint
COMMENT ON FUNCTION "prediction"."drop_partitions_before"(timestamptz, integer) IS 'Drops the monthly partitions of pricing_snapshots and orderbook_snapshots that end at or before p_horizon, and those of market_state_history none of whose states is still in force at p_horizon, recording each in prediction.dropped_partitions (returned). Takes ACCESS EXCLUSIVE on each parent for the drop.';
