-- Partition upkeep that waits only on what it must (docs/operations.md, "Retention"):
--
-- 1. prediction.create_month_partition locks the parent alone (LOCK TABLE ONLY). LOCK TABLE on a
--    partitioned table also locks every partition, so creating a month waited behind any
--    REINDEX CONCURRENTLY (the packer's), VACUUM or ANALYZE of an existing month, while holding
--    the write lock of the transaction it runs in: every writer stalled, then failed.
-- 2. A month counts as present when any partition of the table covers part of it, whatever its
--    name (one attached by hand or by another partition manager): attaching ours would fail as
--    overlapping, and so would every write of that month.
-- 3. Retention drops one partition a transaction (prediction.drop_month_partition), oldest first,
--    and its row count is taken beforehand, outside the write lock. The single statement it
--    replaces (prediction.drop_partitions_before) counted and dropped every month at once under the
--    writers' statement timeout, locking each parent in turn: with a backlog of large months it
--    never finished, and a reader reading two of the tables could deadlock with it.
-- 4. The comments of history_absent and history_horizons say what retention keeps: the state of a
--    market still in force at the horizon stays, and price_as_of shows it.

CREATE FUNCTION "prediction"."month_partitions"(p_parent regclass)
RETURNS TABLE ("partition" regclass, "range_start" timestamptz, "range_end" timestamptz)
LANGUAGE sql STABLE
AS $$
  -- The bound as PostgreSQL prints it, in the session's time zone with its offset: read back as
  -- timestamptz, the same instant whatever that zone. A DEFAULT or MINVALUE bound reads as null.
  SELECT c.oid::regclass,
         substring(pg_get_expr(c.relpartbound, c.oid) FROM 'FROM \(''([^'']+)''\)')::timestamptz,
         substring(pg_get_expr(c.relpartbound, c.oid) FROM 'TO \(''([^'']+)''\)')::timestamptz
    FROM pg_inherits i
    JOIN pg_class c ON c.oid = i.inhrelid
   WHERE i.inhparent = p_parent
$$;
--> statement-breakpoint
COMMENT ON FUNCTION "prediction"."month_partitions"(regclass) IS 'The partitions of a range-partitioned table with the instants their ranges start and end (null for a DEFAULT partition).';
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "prediction"."create_month_partition"(p_parent regclass, p_month timestamp, p_fillfactor integer)
RETURNS boolean
LANGUAGE plpgsql
AS $$
DECLARE
  v_table text := (SELECT c.relname FROM pg_class c WHERE c.oid = p_parent);
  v_name text := v_table || '_' || to_char(p_month, 'YYYY_MM');
  v_start text := to_char(date_trunc('month', p_month), 'YYYY-MM-DD') || ' 00:00:00+00';
  v_end text := to_char(date_trunc('month', p_month) + interval '1 month', 'YYYY-MM-DD') || ' 00:00:00+00';
BEGIN
  IF to_regclass(format('prediction_partitions.%I', v_name)) IS NOT NULL
     OR EXISTS (SELECT 1 FROM prediction.month_partitions(p_parent) m
                 WHERE m.range_start < v_end::timestamptz AND m.range_end > v_start::timestamptz) THEN
    RETURN false;
  END IF;
  -- Creators queue here (the lock conflicts with itself), readers and writers do not. ONLY: the
  -- parent's partitions stay unlocked, so a rebuild or vacuum of one holds nobody up.
  EXECUTE format('LOCK TABLE ONLY %s IN SHARE UPDATE EXCLUSIVE MODE', p_parent);
  IF to_regclass(format('prediction_partitions.%I', v_name)) IS NOT NULL
     OR EXISTS (SELECT 1 FROM prediction.month_partitions(p_parent) m
                 WHERE m.range_start < v_end::timestamptz AND m.range_end > v_start::timestamptz) THEN
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
COMMENT ON FUNCTION "prediction"."create_month_partition"(regclass, timestamp, integer) IS 'Creates and attaches the partition of p_parent for the UTC month holding p_month (prediction_partitions.<table>_YYYY_MM) unless one exists or another partition already covers part of that month. Locks only the parent. Returns whether it created one.';
--> statement-breakpoint
CREATE FUNCTION "prediction"."retention_candidates"(p_horizon timestamptz)
RETURNS TABLE ("table_name" text, "partition" regclass, "range_start" timestamptz, "range_end" timestamptz)
LANGUAGE plpgsql STABLE
AS $$
DECLARE
  r record;
  v_in_force boolean;
BEGIN
  FOR r IN
    SELECT t.name, m.partition, m.range_start, m.range_end
      FROM unnest(array['pricing_snapshots', 'orderbook_snapshots', 'market_state_history']) AS t(name)
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
COMMENT ON FUNCTION "prediction"."retention_candidates"(timestamptz) IS 'The partitions that retention with horizon p_horizon drops, oldest first: those of pricing_snapshots and orderbook_snapshots that end at or before p_horizon, and those of market_state_history none of whose states is still in force at p_horizon.';
--> statement-breakpoint
CREATE FUNCTION "prediction"."drop_month_partition"(p_partition text, p_horizon timestamptz, p_retention_months integer, p_row_count bigint)
RETURNS SETOF "prediction"."dropped_partitions"
LANGUAGE plpgsql
AS $$
DECLARE
  v_candidate record;
  v_dropped prediction.dropped_partitions;
BEGIN
  -- Checked again under the write lock: another process may have dropped it since.
  SELECT * INTO v_candidate FROM prediction.retention_candidates(p_horizon) c WHERE c.partition = to_regclass(p_partition);
  IF NOT FOUND THEN
    RETURN;
  END IF;
  INSERT INTO prediction.dropped_partitions (table_name, partition_name, range_start, range_end, row_count, retention_months)
  SELECT v_candidate.table_name, c.relname, v_candidate.range_start, v_candidate.range_end, p_row_count, p_retention_months
    FROM pg_class c WHERE c.oid = v_candidate.partition
  RETURNING * INTO v_dropped;
  EXECUTE format('DROP TABLE %s', v_candidate.partition);
  RETURN NEXT v_dropped;
END
$$;
--> statement-breakpoint
COMMENT ON FUNCTION "prediction"."drop_month_partition"(text, timestamptz, integer, bigint) IS 'Drops one partition that retention with horizon p_horizon drops (prediction.retention_candidates), recording it in prediction.dropped_partitions with p_row_count, its rows counted beforehand (returned). Does nothing if it is no longer a candidate or no longer exists. Takes ACCESS EXCLUSIVE on its parent for the drop.';
--> statement-breakpoint
DROP FUNCTION "prediction"."drop_partitions_before"(timestamptz, integer);
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."dropped_partitions"."row_count" IS 'Rows the partition held when it was dropped (counted just before: a month behind the horizon receives no more rows).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_as_of"."history_absent" IS 'True when retention dropped part of what was known at as_of: then values it dropped are null as unknown, not as unobserved or unchanged. Before the horizon of analytics.history_horizons everything is null; after it, with a quote in force first observed before the horizon, the prices are null while the state in force (kept by retention) is shown.';
--> statement-breakpoint
COMMENT ON FUNCTION "analytics"."price_as_of"(text, timestamptz) IS 'One market as known at instant p_at: the latest prices (USD) and state (status, result, settlement time) observed at or before p_at; a change observed exactly at p_at counts. Returns one row (type analytics.market_as_of), or none if the market had not been observed by p_at. Nothing observed after p_at leaks in. Where retention dropped the data (history_absent), the row says so and what was dropped is null: everything before the horizon, the prices of a quote first observed before it (the state in force is kept). Backtest join: FROM signals s LEFT JOIN LATERAL analytics.price_as_of(s.market_id, s.at) p ON true.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."history_horizons"."horizon" IS 'Data observed before this instant (UTC) was dropped; for market_state_history, but for the months holding a state still in force at that instant, which are kept.';
