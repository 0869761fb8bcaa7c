-- Rows that are re-observed every cycle get their last_seen_at / last_observed_at moved in place.
-- Free space on each page lets those updates stay HOT (no new index entries).
-- toast_tuple_target moves the raw payloads of events and markets out of line as soon as a row
-- passes 128 bytes, so such an update copies a narrow row (a TOAST pointer) instead of the payload:
-- a re-observation costs ~10x less WAL.
ALTER TABLE "prediction"."events" SET (fillfactor = 85, toast_tuple_target = 128);
--> statement-breakpoint
ALTER TABLE "prediction"."markets" SET (fillfactor = 85, toast_tuple_target = 128);
--> statement-breakpoint
ALTER TABLE "prediction"."pricing_snapshots" SET (fillfactor = 90);
--> statement-breakpoint
ALTER TABLE "prediction"."orderbook_snapshots" SET (fillfactor = 90);
