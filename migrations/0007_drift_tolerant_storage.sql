CREATE TABLE "prediction"."upstream_shapes" (
	"endpoint" text NOT NULL,
	"fingerprint" text NOT NULL,
	"paths" text[] NOT NULL,
	"example" jsonb NOT NULL,
	"records_seen" bigint NOT NULL,
	"first_seen_at" timestamp with time zone NOT NULL,
	"last_seen_at" timestamp with time zone NOT NULL,
	"first_run_id" bigint,
	"last_run_id" bigint,
	CONSTRAINT "upstream_shapes_endpoint_fingerprint_pk" PRIMARY KEY("endpoint","fingerprint")
);
--> statement-breakpoint
ALTER TABLE "prediction"."ingest_runs" DROP CONSTRAINT "ingest_runs_status_check";--> statement-breakpoint
ALTER TABLE "prediction"."markets" DROP CONSTRAINT "markets_status_check";--> statement-breakpoint
ALTER TABLE "prediction"."markets" DROP CONSTRAINT "markets_result_check";--> statement-breakpoint
ALTER TABLE "prediction"."market_state_history" ALTER COLUMN "status" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "prediction"."markets" ALTER COLUMN "status" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "prediction"."markets" ALTER COLUMN "open_time" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "prediction"."markets" ALTER COLUMN "close_time" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "prediction"."ingest_runs" ADD COLUMN "records_by_endpoint" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "prediction"."upstream_shapes" ADD CONSTRAINT "upstream_shapes_first_run_id_ingest_runs_run_id_fk" FOREIGN KEY ("first_run_id") REFERENCES "prediction"."ingest_runs"("run_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prediction"."upstream_shapes" ADD CONSTRAINT "upstream_shapes_last_run_id_ingest_runs_run_id_fk" FOREIGN KEY ("last_run_id") REFERENCES "prediction"."ingest_runs"("run_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prediction"."ingest_runs" ADD CONSTRAINT "ingest_runs_status_check" CHECK ("prediction"."ingest_runs"."status" in ('running', 'succeeded', 'degraded', 'failed', 'aborted'));