CREATE SCHEMA "analytics";
--> statement-breakpoint
CREATE TABLE "prediction"."crawl_coverage" (
	"run_id" bigint NOT NULL,
	"provider" text NOT NULL,
	"category" text NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone,
	"pages" integer DEFAULT 0 NOT NULL,
	"events_seen" integer DEFAULT 0 NOT NULL,
	"complete" boolean DEFAULT false NOT NULL,
	CONSTRAINT "crawl_coverage_run_id_provider_category_pk" PRIMARY KEY("run_id","provider","category")
);
--> statement-breakpoint
ALTER TABLE "prediction"."crawl_coverage" ADD CONSTRAINT "crawl_coverage_run_id_ingest_runs_run_id_fk" FOREIGN KEY ("run_id") REFERENCES "prediction"."ingest_runs"("run_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "crawl_coverage_provider_category_started_idx" ON "prediction"."crawl_coverage" USING btree ("provider","category","started_at");