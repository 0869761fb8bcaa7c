CREATE TABLE "prediction"."job_ticks" (
	"job" text NOT NULL,
	"tick_at" timestamp with time zone NOT NULL,
	"instance_id" text NOT NULL,
	"claimed_at" timestamp with time zone NOT NULL,
	CONSTRAINT "job_ticks_job_tick_at_pk" PRIMARY KEY("job","tick_at")
);
--> statement-breakpoint
CREATE TABLE "prediction"."upstream_sources" (
	"api_url" text PRIMARY KEY NOT NULL,
	"first_used_at" timestamp with time zone NOT NULL,
	"last_used_at" timestamp with time zone NOT NULL
);
