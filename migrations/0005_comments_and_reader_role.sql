-- Documentation and read access.
--
-- 1. A COMMENT on every table and column of `prediction`, with units, so that Metabase and
--    psql's \d+ show them (the analytics objects carry theirs in 0004). A table or column added
--    later needs its own: test/analytics/catalog.test.ts checks that none is missing.
-- 2. The role prediction_reader: read-only access for Metabase and analysts, to be granted to
--    their logins.

COMMENT ON TABLE "prediction"."events" IS 'One row per event ever listed by the API: its current state and the last payload received. Changes of is_active, is_live and winner are kept in event_state_history.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."events"."event_id" IS 'Event id, e.g. POLY-30615; unique across providers.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."events"."provider" IS 'Provider listing the event: kalshi, polymarket (others tolerated); "unknown" if neither the record nor the request said.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."events"."series" IS 'Series-level identifier, as received.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."events"."category" IS 'Category: crypto, sports, politics, esports, culture, economics, tech.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."events"."subcategory" IS 'Subcategory, as received.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."events"."title" IS 'Title (from the event metadata).';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."events"."subtitle" IS 'Subtitle (from the event metadata).';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."events"."image_url" IS 'Image URL (from the event metadata).';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."events"."close_condition" IS 'Close condition text, as received.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."events"."rules_pdf" IS 'Reference to the document with the full rules.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."events"."multiple_winners" IS 'Whether several markets of the event may win.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."events"."is_active" IS 'Whether the event is active (listed on GET /events).';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."events"."is_live" IS 'Whether the event is currently live.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."events"."is_trending" IS 'Whether upstream flagged the event trending in the response it came in (context-dependent).';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."events"."is_recommended" IS 'Whether upstream flagged the event recommended in the response it came in (context-dependent).';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."events"."winner" IS 'Market id of the winning market; null while unresolved (upstream sends an empty string).';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."events"."begin_at" IS 'When the event begins (UTC); null if upstream gave none.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."events"."tvl_usd" IS 'Total value locked, USD (upstream tvlDollars), exact.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."events"."volume_usd" IS 'Total traded volume of the event, USD (upstream volumeUsd), exact.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."events"."raw" IS 'The event as last received (without its markets array), for fields not modelled in columns.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."events"."drift" IS 'Tags of tolerated deviations from the API spec seen on the last record (e.g. pricing_as_string).';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."events"."first_seen_at" IS 'First observation of the event (UTC).';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."events"."last_seen_at" IS 'Latest observation of the event (UTC), moved on every observation even when nothing changed.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."events"."changed_at" IS 'Last time any stored value of the row changed (UTC).';
--> statement-breakpoint
COMMENT ON TABLE "prediction"."markets" IS 'One row per market ever seen: its current state and the last payload received. Changes of status, result and settlement_time are kept in market_state_history, prices in pricing_snapshots.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."markets"."market_id" IS 'Market id, e.g. POLY-558936 or a Kalshi ticker; unique across providers.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."markets"."event_id" IS 'Event the market belongs to (events.event_id).';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."markets"."provider" IS 'Provider listing the market: kalshi, polymarket (others tolerated).';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."markets"."title" IS 'Title (from the market metadata); kept when a later record omits it.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."markets"."subtitle" IS 'Subtitle (from the market metadata); kept when a later record omits it.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."markets"."description" IS 'Description (from the market metadata); kept when a later record omits it.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."markets"."rules_primary" IS 'Primary resolution rules text; kept when a later record omits it.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."markets"."rules_secondary" IS 'Secondary resolution rules text; kept when a later record omits it.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."markets"."is_tradable" IS 'Whether upstream marks the market tradable; kept when a later record omits it.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."markets"."status" IS 'Trading status: open or closed.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."markets"."result" IS 'Result: yes, no, or null while unresolved.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."markets"."open_time" IS 'When trading opens or opened (UTC).';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."markets"."close_time" IS 'When trading closes or closed (UTC).';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."markets"."settlement_time" IS 'When the market settled (UTC); null while pending (upstream sends 0).';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."markets"."raw" IS 'The market as last received, without its pricing (prices have their own history).';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."markets"."drift" IS 'Tags of tolerated deviations from the API spec seen on the last record.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."markets"."first_seen_at" IS 'First observation of the market (UTC).';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."markets"."last_seen_at" IS 'Latest observation of the market (UTC), moved on every observation even when nothing changed.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."markets"."changed_at" IS 'Last time any stored value of the row changed (UTC).';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."markets"."detail_fetched_at" IS 'Last time the market''s own detail (GET /markets/{id}) was fetched (UTC); null if never.';
--> statement-breakpoint
COMMENT ON TABLE "prediction"."market_state_history" IS 'One row per distinct (status, result, settlement_time) a market has had, valid over [valid_from, valid_to). A repeated observation adds nothing; consecutive rows of a market are contiguous.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."market_state_history"."market_id" IS 'Market id (markets.market_id).';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."market_state_history"."status" IS 'Trading status: open or closed.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."market_state_history"."result" IS 'Result: yes, no, or null while unresolved.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."market_state_history"."settlement_time" IS 'Settlement time as reported (UTC); null while pending.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."market_state_history"."valid_from" IS 'First observation of this state (UTC), inclusive.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."market_state_history"."valid_to" IS 'First observation of the next, different state (UTC), exclusive; null on the current row.';
--> statement-breakpoint
COMMENT ON TABLE "prediction"."event_state_history" IS 'One row per distinct (is_active, is_live, winner) an event has had, valid over [valid_from, valid_to). A repeated observation adds nothing.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."event_state_history"."event_id" IS 'Event id (events.event_id).';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."event_state_history"."is_active" IS 'Whether the event was active (listed).';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."event_state_history"."is_live" IS 'Whether the event was live.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."event_state_history"."winner" IS 'Market id of the winning market; null while unresolved.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."event_state_history"."valid_from" IS 'First observation of this state (UTC), inclusive.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."event_state_history"."valid_to" IS 'First observation of the next, different state (UTC), exclusive; null on the current row.';
--> statement-breakpoint
COMMENT ON TABLE "prediction"."pricing_snapshots" IS 'Change-only price history: one row per distinct set of a market''s prices, in force from observed_at until the next row''s observed_at. Prices in micro-USD per contract as received (650000 = $0.65 = 65 % implied probability); analytics.price_history shows them in USD with validity intervals.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."pricing_snapshots"."market_id" IS 'Market id (markets.market_id).';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."pricing_snapshots"."observed_at" IS 'First observation of these prices (UTC): they are in force from here until the next row''s observed_at.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."pricing_snapshots"."last_observed_at" IS 'Latest observation that confirmed these prices unchanged (UTC).';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."pricing_snapshots"."buy_yes_micro_usd" IS 'Price to buy one YES contract (YES ask), micro-USD (1,000,000 = $1).';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."pricing_snapshots"."buy_no_micro_usd" IS 'Price to buy one NO contract (NO ask), micro-USD.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."pricing_snapshots"."sell_yes_micro_usd" IS 'Price received for selling one YES contract (YES bid), micro-USD.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."pricing_snapshots"."sell_no_micro_usd" IS 'Price received for selling one NO contract (NO bid), micro-USD.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."pricing_snapshots"."volume" IS 'Traded volume as reported with the prices (units undocumented upstream, stored as received).';
--> statement-breakpoint
COMMENT ON TABLE "prediction"."orderbook_snapshots" IS 'Change-only order-book history: one row per distinct book of a market, in force from observed_at until the next snapshot''s observed_at. Its price levels are in orderbook_levels; analytics.orderbook_top and analytics.orderbook_depth read them from the YES side.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."orderbook_snapshots"."snapshot_id" IS 'Snapshot id, unique (identity).';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."orderbook_snapshots"."market_id" IS 'Market id (markets.market_id).';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."orderbook_snapshots"."observed_at" IS 'First observation of this book (UTC).';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."orderbook_snapshots"."last_observed_at" IS 'Latest observation that confirmed this book unchanged (UTC).';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."orderbook_snapshots"."yes_levels" IS 'Number of YES bid levels.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."orderbook_snapshots"."no_levels" IS 'Number of NO bid levels.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."orderbook_snapshots"."content_hash" IS 'Hash of the levels (and of null-ness): equal books, equal hashes.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."orderbook_snapshots"."is_null" IS 'True when the endpoint answered null (no book): recorded, since "no book" is itself an observation.';
--> statement-breakpoint
COMMENT ON TABLE "prediction"."orderbook_levels" IS 'The price levels of an order-book snapshot; append-only. Upstream books hold bids only: side yes = YES bids, side no = NO bids; a NO bid at p cents is a YES offer at 100 - p.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."orderbook_levels"."market_id" IS 'Market id (orderbook_snapshots.market_id).';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."orderbook_levels"."snapshot_id" IS 'Snapshot the level belongs to (orderbook_snapshots.snapshot_id).';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."orderbook_levels"."side" IS 'yes: a bid for YES contracts; no: a bid for NO contracts.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."orderbook_levels"."price_cents" IS 'Bid price, cents of USD per contract (0..100).';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."orderbook_levels"."size" IS 'Contracts bid at this price (possibly fractional).';
--> statement-breakpoint
COMMENT ON TABLE "prediction"."ingest_runs" IS 'One row per job execution (e.g. a sync cycle), with its request and row accounting.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."ingest_runs"."run_id" IS 'Run id (identity).';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."ingest_runs"."job" IS 'Job name, e.g. sync.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."ingest_runs"."started_at" IS 'When the run started (UTC).';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."ingest_runs"."finished_at" IS 'When it ended (UTC); null while running.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."ingest_runs"."status" IS 'running, succeeded, failed or aborted (aborted: stopped by a signal, or left running by a process that died).';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."ingest_runs"."requests" IS 'HTTP requests sent to the API.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."ingest_runs"."requests_by_status" IS 'Requests by endpoint and HTTP status, e.g. {"/events": {"200": 14, "429": 1}}.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."ingest_runs"."records_seen" IS 'Upstream records received (events, markets, books).';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."ingest_runs"."records_written" IS 'Records that inserted or changed a row.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."ingest_runs"."records_rejected" IS 'Records that failed validation and went to rejected_records.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."ingest_runs"."rows_by_table" IS 'Rows inserted per table, e.g. {"pricing_snapshots": 120}; updates of last_seen_at / last_observed_at are not counted.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."ingest_runs"."error" IS 'Why the run failed or was aborted; null on success.';
--> statement-breakpoint
COMMENT ON TABLE "prediction"."rejected_records" IS 'Quarantine: upstream records that failed validation, with the reason and the payload. A record that keeps arriving unchanged is one row.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."rejected_records"."rejection_id" IS 'Rejection id (identity).';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."rejected_records"."run_id" IS 'Run that first received the record (ingest_runs.run_id); null outside a run.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."rejected_records"."endpoint" IS 'Route template the record came from, e.g. /events, /events#markets, /orderbook/{marketId}.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."rejected_records"."entity_id" IS 'Best-effort id of the record (event or market id); null if unreadable.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."rejected_records"."reason" IS 'Readable validation failure, e.g. markets[2].status: expected open|closed, got "halted".';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."rejected_records"."payload" IS 'The record as received (made jsonb-safe; truncated if huge).';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."rejected_records"."payload_hash" IS 'Hash of the payload: identifies a repeated record.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."rejected_records"."received_at" IS 'First time the record was received (UTC).';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."rejected_records"."last_received_at" IS 'Latest time it was received (UTC).';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."rejected_records"."last_run_id" IS 'Run that last received it (ingest_runs.run_id).';
--> statement-breakpoint
COMMENT ON TABLE "prediction"."crawl_coverage" IS 'One row per provider × category listing crawl of a sync run: which runs covered which listing, when, and whether completely. Read through analytics.data_coverage and analytics.coverage_gaps().';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."crawl_coverage"."run_id" IS 'Run the crawl belonged to (ingest_runs.run_id).';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."crawl_coverage"."provider" IS 'Provider crawled: kalshi, polymarket, ...';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."crawl_coverage"."category" IS 'Category crawled: crypto, sports, politics, esports, culture, economics, tech.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."crawl_coverage"."started_at" IS 'When the crawl of this listing started (UTC).';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."crawl_coverage"."finished_at" IS 'When it ended (UTC); null while running, or if its process died.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."crawl_coverage"."pages" IS 'Listing pages fetched and written.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."crawl_coverage"."events_seen" IS 'Events received in those pages (valid or not).';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."crawl_coverage"."complete" IS 'True once the listing was paged to its end (hasNext false); false if the crawl stopped early.';
--> statement-breakpoint
COMMENT ON TABLE "prediction"."job_ticks" IS 'One row per scheduled tick of a job that an instance claimed: with several instances on one database, the instance whose insert wins the primary key runs that tick.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."job_ticks"."job" IS 'Job name.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."job_ticks"."tick_at" IS 'Scheduled time of the tick (UTC).';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."job_ticks"."instance_id" IS 'Service instance that claimed the tick.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."job_ticks"."claimed_at" IS 'When it claimed it (UTC).';
--> statement-breakpoint
COMMENT ON TABLE "prediction"."upstream_sources" IS 'The upstream API(s) whose data fills this database, by base URL: the service refuses to mix in another upstream unless told to.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."upstream_sources"."api_url" IS 'Base URL of the API, e.g. https://api.jup.ag/prediction/v1.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."upstream_sources"."first_used_at" IS 'First time data from it was written (UTC).';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."upstream_sources"."last_used_at" IS 'Latest time data from it was written (UTC).';
--> statement-breakpoint
-- Roles are cluster-wide while migrations run per database (the test suite migrates many
-- databases on one server, some at the same time): create it only if missing, and treat a
-- concurrent creation as success. An existing role is left as its administrator set it.
DO $$
BEGIN
  IF NOT EXISTS (SELECT FROM pg_catalog.pg_roles WHERE rolname = 'prediction_reader') THEN
    BEGIN
      CREATE ROLE prediction_reader NOLOGIN;
      COMMENT ON ROLE prediction_reader IS 'Read-only access to the prediction and analytics schemas (SELECT, EXECUTE on the analytics functions). NOLOGIN: grant it to a login, e.g. CREATE ROLE metabase LOGIN PASSWORD ''...'' IN ROLE prediction_reader.';
    EXCEPTION
      WHEN duplicate_object OR unique_violation THEN
        NULL; -- created meanwhile by another database's migration
      WHEN insufficient_privilege THEN
        RAISE EXCEPTION 'creating the role prediction_reader needs the CREATEROLE privilege'
          USING ERRCODE = 'insufficient_privilege',
                HINT = 'Have an administrator run: CREATE ROLE prediction_reader NOLOGIN; then migrate again.';
    END;
  END IF;
END
$$;
--> statement-breakpoint
-- A role-level setting is cluster-wide too, so it is written once, not on every migration (two
-- concurrent ALTER ROLEs can fail with "tuple concurrently updated"), and an administrator's own
-- value is kept. Postgres applies it to sessions that log in as this role only, not to member
-- logins: docs/queries.md shows the same setting on the login granted this role.
DO $$
BEGIN
  IF NOT EXISTS (
    SELECT FROM pg_catalog.pg_db_role_setting s
      JOIN pg_catalog.pg_roles r ON r.oid = s.setrole
     WHERE r.rolname = 'prediction_reader' AND s.setdatabase = 0
       AND EXISTS (SELECT FROM unnest(s.setconfig) c WHERE c LIKE 'statement_timeout=%')
  ) THEN
    BEGIN
      ALTER ROLE prediction_reader SET statement_timeout = '60s';
    EXCEPTION WHEN insufficient_privilege THEN
      -- A role an administrator created for us, which we may not alter: theirs to configure.
      RAISE WARNING 'could not set statement_timeout on prediction_reader (needs CREATEROLE); set it on the logins that use it';
    END;
  END IF;
END
$$;
--> statement-breakpoint
GRANT USAGE ON SCHEMA "prediction", "analytics" TO prediction_reader;
--> statement-breakpoint
GRANT SELECT ON ALL TABLES IN SCHEMA "prediction", "analytics" TO prediction_reader;
--> statement-breakpoint
GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA "analytics" TO prediction_reader;
--> statement-breakpoint
-- Tables, views and functions created by later migrations (run by the same user as this one) are
-- readable without another GRANT.
ALTER DEFAULT PRIVILEGES IN SCHEMA "prediction", "analytics" GRANT SELECT ON TABLES TO prediction_reader;
--> statement-breakpoint
ALTER DEFAULT PRIVILEGES IN SCHEMA "analytics" GRANT EXECUTE ON FUNCTIONS TO prediction_reader;
