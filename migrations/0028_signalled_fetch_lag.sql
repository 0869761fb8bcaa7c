-- How soon a signalled fetch follows its signal (a fill's time, the crawl's observation of a
-- listed move): `plan` predicts that a change a signal tells is stored that long after it
-- (src/plan/bookInformation.ts). Rows that exist start at 0 with their earlier signalled fetches
-- counted: new fetches outweigh them. A constant default adds a column without rewriting the
-- table, on a Citus cluster on every shard.
ALTER TABLE "prediction"."book_fetches" ADD COLUMN "signalled_lag_sec" double precision DEFAULT 0 NOT NULL;--> statement-breakpoint
COMMENT ON COLUMN "prediction"."book_fetches"."signalled_lag_sec" IS 'Sum of the seconds from each signalled fetch''s signal (the fill''s time, the crawl''s observation of a listed move) to its answer.';
