-- Lays out the prediction-ingest schema on Citus, the distributed Postgres (docs/scaling.md).
--
-- Run on the coordinator, after `prediction-ingest migrate` has created the schema there and the
-- workers have been added (citus_add_node), preferably before the first sync; again after a
-- migration that adds a table (tables laid out already are skipped):
--
--   psql "$COORDINATOR_URL" -v ON_ERROR_STOP=1 -f scripts/citus/distribute.sql
--
-- It is one transaction: either every table is laid out or none is. On tables that already hold
-- data, create_distributed_table copies the rows to the shards inside that transaction; for large
-- tables use create_distributed_table_concurrently table by table instead (docs/scaling.md).
--
-- Market data is distributed by market_id, in one co-location group: a market's prices, states
-- and books sit on the same shard, so every per-market query and every join on market_id
-- stays on one node. Events are a reference table (markets point at them by foreign key, and
-- Citus allows a distributed table's foreign key only to a reference table or a co-located one).
-- The service's bookkeeping stays local on the coordinator, where the app writes it.
-- pricing_snapshots, orderbook_snapshots and market_state_history are partitioned by month
-- (migrations/0013_compact_books_and_time_partitions.sql): Citus distributes a partitioned table
-- with its partitions, and a month the pipeline attaches later (prediction.ensure_month_partitions)
-- is distributed as it is attached; retention's DROP of a month drops its shards.
--
-- test/scaling/citusLayout.test.ts reads the layout table below from this file (the lines between
-- the two markers) and checks the migrated schema against Citus's rules for it: every table of
-- `prediction` and `analytics` must appear here, so a new table fails the test until it is
-- classified. It also runs the whole script against stand-ins of the two Citus functions. A listed
-- name that has become a view is skipped: views are not distributed.
\set ON_ERROR_STOP on

BEGIN;

-- citus-layout:begin
CREATE TEMPORARY TABLE citus_layout (
  position serial,
  table_name text PRIMARY KEY,
  placement text NOT NULL CHECK (placement IN ('distributed', 'reference', 'local')),
  -- Distributed tables only; the first distributed table anchors the co-location group.
  distribution_column text,
  reason text NOT NULL CHECK (reason <> ''),
  CHECK ((placement = 'distributed') = (distribution_column IS NOT NULL))
) ON COMMIT DROP;

INSERT INTO citus_layout (table_name, placement, distribution_column, reason) VALUES
  ('prediction.events', 'reference', NULL,
   'markets.event_id references it; thousands of rows, joined to markets in market_latest, market_resolutions and data_freshness'),
  ('prediction.event_state_history', 'reference', NULL,
   'keyed by event_id, no market_id; a few rows per event'),
  ('prediction.markets', 'distributed', 'market_id',
   'one row per market: the anchor of the market_id co-location group'),
  ('prediction.market_state_history', 'distributed', 'market_id',
   'per-market history: as-of lookups and resolutions read it with markets on one shard'),
  ('prediction.pricing_snapshots', 'distributed', 'market_id',
   'per-market price history: the largest table after the order books'),
  ('prediction.orderbook_snapshots', 'distributed', 'market_id',
   'per-market book history, levels inside (prediction.orderbook_levels is a view over it)'),
  ('prediction.book_fetches', 'distributed', 'market_id',
   'one row per market: what its order-book fetches found; written with its books, read by the sweep with the market'),
  ('prediction.trades', 'distributed', 'market_id',
   'per-market fills of the trade feed, partitioned by month of traded_at; trades_with_mid joins them to the price history on market_id'),
  ('prediction.trade_polls', 'local', NULL,
   'one row per poll of the trade feed (its coverage), written by the app on the coordinator; never joined to market data'),
  ('prediction.ingest_runs', 'local',  NULL,
   'bookkeeping written by the app on the coordinator, a few thousand rows a day; the quarantine, shapes and coverage reference it'),
  ('prediction.rejected_records', 'local', NULL,
   'quarantine: references ingest_runs, read by operators, never joined to market data'),
  ('prediction.upstream_shapes', 'local', NULL,
   'one row per endpoint and shape; references ingest_runs'),
  ('prediction.crawl_coverage', 'local', NULL,
   'one row per listing crawl; references ingest_runs; read by data_coverage and coverage_gaps'),
  ('prediction.job_ticks', 'local', NULL,
   'tick election: one insert per scheduled tick, decided by its primary key on one node'),
  ('prediction.job_leases', 'local', NULL,
   'leases: every write locks its row until commit; a lock must live on one node, not be replicated'),
  ('prediction.write_lock', 'local', NULL,
   'the row every write transaction locks first (SELECT ... FOR UPDATE): one node'),
  ('prediction.upstream_sources', 'local', NULL,
   'which API filled the database: one row, read at start-up'),
('prediction.export_watermarks', 'local', NULL,
   'export bookkeeping: one row per output directory and table, written by export'),
('prediction.export_partitions', 'local', NULL,
   'export bookkeeping: one row per output directory, table and day; never joined to market data'),
('prediction.dropped_partitions', 'local', NULL,
   'retention bookkeeping: one row per dropped month and table, written by the app on the coordinator'),
('prediction.closed_feed_watermarks', 'local', NULL,
   'how far the closed-events feed was read: one row per provider, references ingest_runs'),
('prediction.closed_feed_backfills', 'local', NULL,
   'backfill bookkeeping: one row per provider and since, written by backfill'),
('prediction.category_counts', 'local', NULL,
   'the service''s event counts per category and crawl: references ingest_runs, read by status'),
('prediction.service_settings', 'local', NULL,
   'one row: the settings of the latest service to start, read by plan');
-- citus-layout:end

-- A distributed table's foreign keys to reference tables need those to exist first, and the
-- distributed ones then go in one transaction after DDL on reference tables: sequential mode.
SET LOCAL citus.multi_shard_modify_mode TO 'sequential';

DO $$
DECLARE
  t record;
  kind "char";
  anchor text;
  laid boolean := false;
BEGIN
  FOR t IN SELECT * FROM citus_layout WHERE placement <> 'local'
           ORDER BY placement = 'distributed', position LOOP
    SELECT c.relkind INTO kind FROM pg_class c WHERE c.oid = to_regclass(t.table_name);
    -- A table laid out by an earlier run stays as it is: run the script again after a migration
    -- that adds a table, and only the new one is laid out.
    -- (Making events a reference table adds markets, which references it, to Citus's metadata as a
    -- local table: only hash distribution, or a replicated reference table, counts as laid out.)
    IF kind IS NOT NULL AND to_regclass('pg_catalog.pg_dist_partition') IS NOT NULL THEN
      EXECUTE 'SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_dist_partition WHERE logicalrelid = $1
                 AND CASE $2 WHEN ''distributed'' THEN partmethod = ''h'' ELSE partmethod = ''n'' AND repmodel = ''t'' END)'
        INTO laid USING to_regclass(t.table_name), t.placement;
    END IF;
    IF kind IS NULL THEN
      RAISE EXCEPTION 'citus layout: % is not in the database; run `prediction-ingest migrate` first, or update scripts/citus/distribute.sql', t.table_name;
    ELSIF laid THEN
      RAISE NOTICE 'citus layout: % is laid out already', t.table_name;
      IF t.placement = 'distributed' AND anchor IS NULL THEN
        anchor := t.table_name;
      END IF;
    ELSIF kind = 'v' THEN
      RAISE NOTICE 'citus layout: % is a view now, nothing to distribute', t.table_name;
    ELSIF t.placement = 'reference' THEN
      PERFORM create_reference_table(t.table_name::regclass);
    ELSIF anchor IS NULL THEN
      PERFORM create_distributed_table(t.table_name::regclass, t.distribution_column, colocate_with => 'none');
      anchor := t.table_name;
    ELSE
      PERFORM create_distributed_table(t.table_name::regclass, t.distribution_column, colocate_with => anchor);
    END IF;
  END LOOP;
END
$$;

COMMIT;
