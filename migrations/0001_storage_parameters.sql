-- Rows that are re-observed every cycle get their last_seen_at / last_observed_at moved in place.
-- Free space on each page lets those updates stay HOT: no new index entries, the old version
-- pruned on the page. A markets row is ~1.2 KB (its raw payload stays inline: Postgres only
-- moves values out of line past ~2 KB a row), so it takes half a page of headroom for every move
-- to stay HOT; at fillfactor 85 only ~22 % did (bench/README.md, 100k markets: 105 MB of WAL per
-- unchanged pass at 85, 6.4 MB at 50). The price is table size, about twice the rows' own.
ALTER TABLE "prediction"."events" SET (fillfactor = 50);
--> statement-breakpoint
ALTER TABLE "prediction"."markets" SET (fillfactor = 50);
--> statement-breakpoint
ALTER TABLE "prediction"."pricing_snapshots" SET (fillfactor = 90);
--> statement-breakpoint
ALTER TABLE "prediction"."orderbook_snapshots" SET (fillfactor = 90);
