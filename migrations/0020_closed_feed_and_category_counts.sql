CREATE TABLE "prediction"."category_counts" (
	"run_id" bigint NOT NULL,
	"provider" text NOT NULL,
	"category" text NOT NULL,
	"event_count" integer NOT NULL,
	"subcategories" jsonb NOT NULL,
	"observed_at" timestamp with time zone NOT NULL,
	CONSTRAINT "category_counts_run_id_provider_category_pk" PRIMARY KEY("run_id","provider","category")
);
--> statement-breakpoint
CREATE TABLE "prediction"."closed_feed_backfills" (
	"provider" text NOT NULL,
	"since" timestamp with time zone NOT NULL,
	"next_start" integer NOT NULL,
	"total" integer NOT NULL,
	"events_seen" integer NOT NULL,
	"oldest_ended_at" timestamp with time zone,
	"started_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "closed_feed_backfills_provider_since_pk" PRIMARY KEY("provider","since")
);
--> statement-breakpoint
CREATE TABLE "prediction"."closed_feed_watermarks" (
	"provider" text PRIMARY KEY NOT NULL,
	"read_through" timestamp with time zone NOT NULL,
	"pages" integer NOT NULL,
	"events_seen" integer NOT NULL,
	"run_id" bigint,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "prediction"."category_counts" ADD CONSTRAINT "category_counts_run_id_ingest_runs_run_id_fk" FOREIGN KEY ("run_id") REFERENCES "prediction"."ingest_runs"("run_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prediction"."closed_feed_watermarks" ADD CONSTRAINT "closed_feed_watermarks_run_id_ingest_runs_run_id_fk" FOREIGN KEY ("run_id") REFERENCES "prediction"."ingest_runs"("run_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "category_counts_provider_observed_idx" ON "prediction"."category_counts" USING btree ("provider","observed_at");--> statement-breakpoint
-- Hand-written below: the catalog's comments on the tables above (drizzle-kit keeps no comments).
COMMENT ON TABLE "prediction"."closed_feed_watermarks" IS 'How far GET /events/closed was read, per provider: the next read asks for events updated since read_through minus an overlap. Moved only by a read paged to its end.';--> statement-breakpoint
COMMENT ON COLUMN "prediction"."closed_feed_watermarks"."provider" IS 'Provider whose feed this is.';--> statement-breakpoint
COMMENT ON COLUMN "prediction"."closed_feed_watermarks"."read_through" IS 'The timestamp the service gave the first page of the last complete read (the asking time when it gave none).';--> statement-breakpoint
COMMENT ON COLUMN "prediction"."closed_feed_watermarks"."pages" IS 'Pages that read took: what plan expects the next one to take.';--> statement-breakpoint
COMMENT ON COLUMN "prediction"."closed_feed_watermarks"."events_seen" IS 'Events that read answered.';--> statement-breakpoint
COMMENT ON COLUMN "prediction"."closed_feed_watermarks"."run_id" IS 'The run that read it.';--> statement-breakpoint
COMMENT ON COLUMN "prediction"."closed_feed_watermarks"."updated_at" IS 'When the row was last written.';--> statement-breakpoint
COMMENT ON TABLE "prediction"."closed_feed_backfills" IS 'Where a backfill of GET /events/closed stands, per provider and since: a stopped backfill resumes at next_start.';--> statement-breakpoint
COMMENT ON COLUMN "prediction"."closed_feed_backfills"."provider" IS 'Provider backfilled.';--> statement-breakpoint
COMMENT ON COLUMN "prediction"."closed_feed_backfills"."since" IS 'How far back it was asked to read (the since sent, whole seconds).';--> statement-breakpoint
COMMENT ON COLUMN "prediction"."closed_feed_backfills"."next_start" IS 'The start of the next page to ask for (the last page''s pagination.end).';--> statement-breakpoint
COMMENT ON COLUMN "prediction"."closed_feed_backfills"."total" IS 'The service''s pagination.total on the last page read.';--> statement-breakpoint
COMMENT ON COLUMN "prediction"."closed_feed_backfills"."events_seen" IS 'Events read so far.';--> statement-breakpoint
COMMENT ON COLUMN "prediction"."closed_feed_backfills"."oldest_ended_at" IS 'The earliest close or settlement among the markets answered; well after since, the service answered less far back than asked.';--> statement-breakpoint
COMMENT ON COLUMN "prediction"."closed_feed_backfills"."started_at" IS 'When the backfill began.';--> statement-breakpoint
COMMENT ON COLUMN "prediction"."closed_feed_backfills"."updated_at" IS 'When its last page was committed.';--> statement-breakpoint
COMMENT ON COLUMN "prediction"."closed_feed_backfills"."finished_at" IS 'When it was paged to its end; null while it is not.';--> statement-breakpoint
COMMENT ON TABLE "prediction"."category_counts" IS 'The service''s own event counts (GET /events/categories) per run, provider and category: status sets them beside what the crawl listed.';--> statement-breakpoint
COMMENT ON COLUMN "prediction"."category_counts"."run_id" IS 'The run that read them.';--> statement-breakpoint
COMMENT ON COLUMN "prediction"."category_counts"."provider" IS 'Provider counted.';--> statement-breakpoint
COMMENT ON COLUMN "prediction"."category_counts"."category" IS 'Category as the service names it.';--> statement-breakpoint
COMMENT ON COLUMN "prediction"."category_counts"."event_count" IS 'Events of the category the service counted (active events, as the crawl lists them).';--> statement-breakpoint
COMMENT ON COLUMN "prediction"."category_counts"."subcategories" IS 'Its subcategories'' counts: [{subcategory, eventCount}].';--> statement-breakpoint
COMMENT ON COLUMN "prediction"."category_counts"."observed_at" IS 'When the counts arrived.';
