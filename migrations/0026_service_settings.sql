CREATE TABLE "prediction"."service_settings" (
	"singleton" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"instance_id" text NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"crawl_schedule" text NOT NULL,
	"trades_schedule" text NOT NULL,
	"details_schedule" text NOT NULL,
	"orderbook_schedule" text NOT NULL,
	"orderbook_max_age_sec" integer NOT NULL,
	"rate_limit_rpm" integer,
	CONSTRAINT "service_settings_one_row" CHECK ("prediction"."service_settings"."singleton")
);

--> statement-breakpoint
-- Read by `plan`, which replays the schedules the running service uses. One statement per breakpoint.
COMMENT ON TABLE "prediction"."service_settings" IS 'One row: the settings of the latest service to start, written when it starts. `plan` replays these schedules rather than its own process''s, and says so.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."service_settings"."singleton" IS 'Always true: the table holds one row.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."service_settings"."instance_id" IS 'The service instance that wrote the row (host, pid and a random suffix).';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."service_settings"."started_at" IS 'When that instance started (database clock).';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."service_settings"."crawl_schedule" IS 'Its CRAWL_SCHEDULE (UTC cron).';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."service_settings"."trades_schedule" IS 'Its TRADES_SCHEDULE (UTC cron).';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."service_settings"."details_schedule" IS 'Its DETAILS_SCHEDULE (UTC cron).';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."service_settings"."orderbook_schedule" IS 'Its ORDERBOOK_SCHEDULE (UTC cron).';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."service_settings"."orderbook_max_age_sec" IS 'Its ORDERBOOK_MAX_AGE_SEC.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."service_settings"."rate_limit_rpm" IS 'Its plan''s rate, PREDICTION_RATE_LIMIT_RPM, in requests per minute; null when it ran without one.';
--> statement-breakpoint
-- The default privileges of 0005 cover objects created by the role that ran it; granting
-- explicitly also covers a migration run by another role.
GRANT SELECT ON "prediction"."service_settings" TO prediction_reader;
