-- A market's changed fetches were kept as a count and a summed interval: their mean interval
-- only, which holds a busy book's estimated change rate low where its intervals spread (a change
-- found 2 s after a fetch says more than one found 40 s after; src/sync/changeRate.ts). The sum
-- of the intervals' squares gives their spread. Rows that exist start with their changed
-- intervals taken as even (the square of the mean, once a fetch); new fetches outweigh them.
ALTER TABLE "prediction"."book_fetches" ADD COLUMN "changed_interval_sq_sec" double precision DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE "prediction"."book_fetches" SET "changed_interval_sq_sec" = "changed_interval_sec" * "changed_interval_sec" / "changed_fetches" WHERE "changed_fetches" > 0;--> statement-breakpoint
COMMENT ON COLUMN "prediction"."book_fetches"."changed_interval_sq_sec" IS 'Sum of the squares of the seconds since the fetch before, over the changed (blind) fetches.';
