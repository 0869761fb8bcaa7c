CREATE INDEX "ingest_runs_job_success_idx" ON "prediction"."ingest_runs" USING btree ("job","finished_at") WHERE "prediction"."ingest_runs"."status" in ('succeeded', 'degraded');--> statement-breakpoint
COMMENT ON INDEX "prediction"."ingest_runs_job_success_idx" IS 'Each job''s latest succeeded or degraded run in one probe (readiness, the service''s start), however many runs are kept.';
--> statement-breakpoint
-- A bound on one call: a span from 1970 created some 2,400 partitions in one transaction, for
-- minutes, until the lock table ran out. The pipeline asks for at most the months ahead (3).
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
COMMENT ON FUNCTION "prediction"."ensure_month_partitions"(timestamptz, timestamptz) IS 'Creates the monthly partitions of every time-partitioned table (pricing_snapshots, orderbook_snapshots, market_state_history) for the UTC months from p_from to p_to that do not exist yet, at most 12 months in one call (invalid_parameter_value beyond). Returns how many it created. The pipeline calls it ahead of time and before each write.';
