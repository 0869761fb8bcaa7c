-- Fetches that a change signal brought forward (a listed move, a fill in the trade feed) find a
-- change by construction; counted among the changed fetches they raised the estimated change
-- rates (src/sync/changeRate.ts). They are now counted apart. Rows that exist keep their earlier
-- signalled fetches among the changed ones; new fetches outweigh them. A constant default adds a
-- column without rewriting the table, on a Citus cluster on every shard.
ALTER TABLE "prediction"."book_fetches" ADD COLUMN "signalled_fetches" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "prediction"."book_fetches" ADD COLUMN "signalled_changed_fetches" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "prediction"."book_fetches" ADD COLUMN "signalled_interval_sec" double precision DEFAULT 0 NOT NULL;--> statement-breakpoint
COMMENT ON COLUMN "prediction"."book_fetches"."changed_fetches" IS 'Blind fetches after an earlier one (none a change signal brought forward) whose book differed from the stored one.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."book_fetches"."unchanged_fetches" IS 'Blind fetches after an earlier one (none a change signal brought forward) whose book equalled the stored one.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."book_fetches"."signalled_fetches" IS 'Fetches after an earlier one that a change signal (a listed move, a fill in the trade feed) brought forward.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."book_fetches"."signalled_changed_fetches" IS 'Of the signalled fetches, those whose book differed from the stored one.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."book_fetches"."signalled_interval_sec" IS 'Sum of the seconds since the fetch before, over the signalled fetches.';
