-- Rows that are re-observed every cycle get their last_seen_at / last_observed_at moved in place.
-- Free space on each page lets those updates stay HOT (no new index entries, little WAL).
ALTER TABLE "prediction"."events" SET (fillfactor = 85);
--> statement-breakpoint
ALTER TABLE "prediction"."markets" SET (fillfactor = 85);
--> statement-breakpoint
ALTER TABLE "prediction"."pricing_snapshots" SET (fillfactor = 90);
--> statement-breakpoint
ALTER TABLE "prediction"."orderbook_snapshots" SET (fillfactor = 90);
