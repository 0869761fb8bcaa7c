CREATE SCHEMA "prediction";
--> statement-breakpoint
CREATE TABLE "prediction"."event_state_history" (
	"event_id" text NOT NULL,
	"is_active" boolean,
	"is_live" boolean,
	"winner" text,
	"valid_from" timestamp with time zone NOT NULL,
	"valid_to" timestamp with time zone,
	CONSTRAINT "event_state_history_event_id_valid_from_pk" PRIMARY KEY("event_id","valid_from"),
	CONSTRAINT "event_state_history_interval_check" CHECK ("prediction"."event_state_history"."valid_to" is null or "prediction"."event_state_history"."valid_to" > "prediction"."event_state_history"."valid_from")
);
--> statement-breakpoint
CREATE TABLE "prediction"."events" (
	"event_id" text PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"series" text,
	"category" text,
	"subcategory" text,
	"title" text,
	"subtitle" text,
	"image_url" text,
	"close_condition" text,
	"rules_pdf" text,
	"multiple_winners" boolean,
	"is_active" boolean,
	"is_live" boolean,
	"is_trending" boolean,
	"is_recommended" boolean,
	"winner" text,
	"begin_at" timestamp with time zone,
	"tvl_usd" numeric,
	"volume_usd" numeric,
	"raw" jsonb NOT NULL,
	"drift" text[] DEFAULT '{}'::text[] NOT NULL,
	"first_seen_at" timestamp with time zone NOT NULL,
	"last_seen_at" timestamp with time zone NOT NULL,
	"changed_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "prediction"."ingest_runs" (
	"run_id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "prediction"."ingest_runs_run_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"job" text NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone,
	"status" text NOT NULL,
	"requests" integer DEFAULT 0 NOT NULL,
	"requests_by_status" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"records_seen" integer DEFAULT 0 NOT NULL,
	"records_written" integer DEFAULT 0 NOT NULL,
	"records_rejected" integer DEFAULT 0 NOT NULL,
	"rows_by_table" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"error" text,
	CONSTRAINT "ingest_runs_status_check" CHECK ("prediction"."ingest_runs"."status" in ('running', 'succeeded', 'failed', 'aborted'))
);
--> statement-breakpoint
CREATE TABLE "prediction"."market_state_history" (
	"market_id" text NOT NULL,
	"status" text NOT NULL,
	"result" text,
	"settlement_time" timestamp with time zone,
	"valid_from" timestamp with time zone NOT NULL,
	"valid_to" timestamp with time zone,
	CONSTRAINT "market_state_history_market_id_valid_from_pk" PRIMARY KEY("market_id","valid_from"),
	CONSTRAINT "market_state_history_interval_check" CHECK ("prediction"."market_state_history"."valid_to" is null or "prediction"."market_state_history"."valid_to" > "prediction"."market_state_history"."valid_from")
);
--> statement-breakpoint
CREATE TABLE "prediction"."markets" (
	"market_id" text PRIMARY KEY NOT NULL,
	"event_id" text NOT NULL,
	"provider" text NOT NULL,
	"title" text,
	"subtitle" text,
	"description" text,
	"rules_primary" text,
	"rules_secondary" text,
	"is_tradable" boolean,
	"status" text NOT NULL,
	"result" text,
	"open_time" timestamp with time zone NOT NULL,
	"close_time" timestamp with time zone NOT NULL,
	"settlement_time" timestamp with time zone,
	"raw" jsonb NOT NULL,
	"drift" text[] DEFAULT '{}'::text[] NOT NULL,
	"first_seen_at" timestamp with time zone NOT NULL,
	"last_seen_at" timestamp with time zone NOT NULL,
	"changed_at" timestamp with time zone NOT NULL,
	"detail_fetched_at" timestamp with time zone,
	CONSTRAINT "markets_status_check" CHECK ("prediction"."markets"."status" in ('open', 'closed')),
	CONSTRAINT "markets_result_check" CHECK ("prediction"."markets"."result" is null or "prediction"."markets"."result" in ('yes', 'no'))
);
--> statement-breakpoint
CREATE TABLE "prediction"."orderbook_levels" (
	"market_id" text NOT NULL,
	"snapshot_id" bigint NOT NULL,
	"side" text NOT NULL,
	"price_cents" numeric NOT NULL,
	"size" numeric NOT NULL,
	CONSTRAINT "orderbook_levels_market_id_snapshot_id_side_price_cents_pk" PRIMARY KEY("market_id","snapshot_id","side","price_cents"),
	CONSTRAINT "orderbook_levels_side_check" CHECK ("prediction"."orderbook_levels"."side" in ('yes', 'no'))
);
--> statement-breakpoint
CREATE TABLE "prediction"."orderbook_snapshots" (
	"snapshot_id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "prediction"."orderbook_snapshots_snapshot_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"market_id" text NOT NULL,
	"observed_at" timestamp with time zone NOT NULL,
	"last_observed_at" timestamp with time zone NOT NULL,
	"yes_levels" integer NOT NULL,
	"no_levels" integer NOT NULL,
	"content_hash" text NOT NULL,
	"is_null" boolean NOT NULL,
	CONSTRAINT "orderbook_snapshots_market_id_snapshot_id_pk" PRIMARY KEY("market_id","snapshot_id")
);
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
	CONSTRAINT "pricing_snapshots_market_id_observed_at_pk" PRIMARY KEY("market_id","observed_at")
);
--> statement-breakpoint
CREATE TABLE "prediction"."rejected_records" (
	"rejection_id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "prediction"."rejected_records_rejection_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"run_id" bigint,
	"endpoint" text NOT NULL,
	"entity_id" text,
	"reason" text NOT NULL,
	"payload" jsonb NOT NULL,
	"payload_hash" text NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	"last_received_at" timestamp with time zone NOT NULL,
	"last_run_id" bigint,
	CONSTRAINT "rejected_records_identity_key" UNIQUE NULLS NOT DISTINCT("endpoint","entity_id","payload_hash")
);
--> statement-breakpoint
ALTER TABLE "prediction"."markets" ADD CONSTRAINT "markets_event_id_events_event_id_fk" FOREIGN KEY ("event_id") REFERENCES "prediction"."events"("event_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prediction"."rejected_records" ADD CONSTRAINT "rejected_records_run_id_ingest_runs_run_id_fk" FOREIGN KEY ("run_id") REFERENCES "prediction"."ingest_runs"("run_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prediction"."rejected_records" ADD CONSTRAINT "rejected_records_last_run_id_ingest_runs_run_id_fk" FOREIGN KEY ("last_run_id") REFERENCES "prediction"."ingest_runs"("run_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "event_state_history_current_idx" ON "prediction"."event_state_history" USING btree ("event_id") WHERE "prediction"."event_state_history"."valid_to" is null;--> statement-breakpoint
CREATE INDEX "events_provider_category_idx" ON "prediction"."events" USING btree ("provider","category");--> statement-breakpoint
CREATE INDEX "ingest_runs_job_started_idx" ON "prediction"."ingest_runs" USING btree ("job","started_at");--> statement-breakpoint
CREATE UNIQUE INDEX "market_state_history_current_idx" ON "prediction"."market_state_history" USING btree ("market_id") WHERE "prediction"."market_state_history"."valid_to" is null;--> statement-breakpoint
CREATE INDEX "markets_event_id_idx" ON "prediction"."markets" USING btree ("event_id");--> statement-breakpoint
CREATE INDEX "markets_unsettled_idx" ON "prediction"."markets" USING btree ("close_time") WHERE "prediction"."markets"."status" = 'open' or "prediction"."markets"."result" is null or "prediction"."markets"."settlement_time" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "orderbook_snapshots_market_observed_idx" ON "prediction"."orderbook_snapshots" USING btree ("market_id","observed_at");--> statement-breakpoint
CREATE INDEX "rejected_records_received_idx" ON "prediction"."rejected_records" USING btree ("received_at");