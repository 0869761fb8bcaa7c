CREATE TABLE "prediction"."book_fetches" (
	"market_id" text PRIMARY KEY NOT NULL,
	"last_fetched_at" timestamp with time zone NOT NULL,
	"fetches" integer DEFAULT 0 NOT NULL,
	"changed_fetches" integer DEFAULT 0 NOT NULL,
	"unchanged_fetches" integer DEFAULT 0 NOT NULL,
	"changed_interval_sec" double precision DEFAULT 0 NOT NULL,
	"unchanged_interval_sec" double precision DEFAULT 0 NOT NULL
);
--> statement-breakpoint
-- What each market's order-book fetches found: the sweep's evidence for its change rate
-- (src/sync/bookSchedule.ts). One statement per breakpoint.
COMMENT ON TABLE "prediction"."book_fetches" IS 'One row a market: what its order-book fetches found. Books are stored change-only, so an unchanged fetch leaves no snapshot; this keeps its outcome, from which the sweep estimates the market''s change rate.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."book_fetches"."market_id" IS 'The market (prediction.markets.market_id).';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."book_fetches"."last_fetched_at" IS 'When the answer of the market''s latest order-book fetch arrived.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."book_fetches"."fetches" IS 'Order-book fetches of the market, its first included.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."book_fetches"."changed_fetches" IS 'Fetches after an earlier one whose book differed from the stored one.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."book_fetches"."unchanged_fetches" IS 'Fetches after an earlier one whose book equalled the stored one.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."book_fetches"."changed_interval_sec" IS 'Sum of the seconds since the fetch before, over the changed fetches.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."book_fetches"."unchanged_interval_sec" IS 'Sum of the seconds since the fetch before, over the unchanged fetches.';
