-- Descriptions brought in line with what the live service sends (the spec the first comments
-- were written from has drifted): units of the volume columns, values outside the documented
-- lists, which ingestion now stores as received (tagged in `drift`) instead of rejecting, and
-- the columns 0007 made nullable. The analytics views count only status 'open' as trading and
-- only 'closed' as closed; their descriptions say how any other status is treated.
-- COMMENT ON replaces the earlier text; one statement per breakpoint.

-- prediction ---------------------------------------------------------------------------------------
COMMENT ON COLUMN "prediction"."events"."provider" IS 'Provider listing the event: kalshi, polymarket, bisonfi, or any other value upstream sends (stored as received); "unknown" if neither the record nor the request said.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."events"."category" IS 'Category as received: one of the documented crypto, sports, politics, esports, culture, economics, tech, or any other value upstream sends (e.g. "climate & science"); null if none.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."events"."volume_usd" IS 'Total traded volume of the event as received (upstream volumeUsd), exact. Despite the name: micro-USD on the live service (a string such as 26003599000000 = $26,003,599); spec-era senders gave USD.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."markets"."provider" IS 'Provider listing the market: kalshi, polymarket, bisonfi, or any other value upstream sends (stored as received).';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."markets"."status" IS 'Trading status as received: open or closed (documented); any other value upstream sends (e.g. cancelled) is stored as received and tagged in drift. Null when the record had none (tagged in drift).';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."markets"."result" IS 'Result as received: yes or no (documented), null while unresolved; any other value upstream sends (e.g. void) is stored as received and tagged in drift.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."markets"."open_time" IS 'When trading opens or opened (UTC); null when the record had none (tagged in drift).';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."markets"."close_time" IS 'When trading closes or closed (UTC); null when the record had none (tagged in drift).';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."markets"."settlement_time" IS 'When the market settled (UTC): from settlementTime, or from resolveAt when settlementTime is absent (the live service sends only resolveAt, null until resolved); null while pending (upstream sends 0 or null).';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."market_state_history"."status" IS 'Trading status as received (see markets.status): open, closed, or any other value upstream sent (e.g. cancelled); null when the record had none.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."market_state_history"."result" IS 'Result as received (see markets.result): yes, no, null while unresolved, or any other value upstream sent (e.g. void).';
--> statement-breakpoint
COMMENT ON TABLE "prediction"."pricing_snapshots" IS 'Change-only price history: one row per distinct set of a market''s prices, in force from observed_at until the next row''s observed_at. Prices in micro-USD per contract as received (650000 = $0.65 = 65 % implied probability); on the live service a sell price of 0 means no bid, a buy price of 1,000,000 no ask, and all four 0 on a closed market no quote. analytics.price_history shows them in USD with validity intervals and reads these edge values as missing.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."pricing_snapshots"."buy_yes_micro_usd" IS 'Price to buy one YES contract (YES ask), micro-USD (1,000,000 = $1), as received: 1,000,000 means no YES ask; 0 on a closed market means no quote.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."pricing_snapshots"."buy_no_micro_usd" IS 'Price to buy one NO contract (NO ask), micro-USD, as received: 1,000,000 means no NO ask; 0 on a closed market means no quote.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."pricing_snapshots"."sell_yes_micro_usd" IS 'Price received for selling one YES contract (YES bid), micro-USD, as received: 0 means no YES bid.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."pricing_snapshots"."sell_no_micro_usd" IS 'Price received for selling one NO contract (NO bid), micro-USD, as received: 0 means no NO bid.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."pricing_snapshots"."volume" IS 'Traded volume of the market as received with the prices (pricing.volume): whole US dollars on the live service (a market volume of 26003599 goes with an event volumeUsd of 26003599000000 micro-USD).';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."ingest_runs"."status" IS 'running, succeeded, degraded, failed or aborted. degraded: the run completed and stored what it accepted, but rejected more than its threshold of the records it read; aborted: stopped by a signal, or left running by a process that died.';
--> statement-breakpoint

-- analytics: units -----------------------------------------------------------------------------------
COMMENT ON COLUMN "analytics"."price_history"."volume" IS 'Traded volume as received with the prices (pricing.volume): whole US dollars on the live service. Same value as volume_usd; kept under this name for existing queries.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_latest"."volume" IS 'Traded volume as last reported with the prices (pricing.volume): whole US dollars on the live service. Same value as volume_usd; kept under this name for existing queries.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_as_of"."volume" IS 'Traded volume reported with those prices (pricing.volume): whole US dollars on the live service.';
--> statement-breakpoint

-- analytics: statuses, results, categories, providers ------------------------------------------------
COMMENT ON COLUMN "analytics"."market_latest"."provider" IS 'Provider listing the market: kalshi, polymarket, bisonfi, or any other value upstream sends.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_latest"."category" IS 'Category of the market''s event as received: crypto, sports, politics, esports, culture, economics, tech, or any other value upstream sends (e.g. "climate & science"); null if upstream gave none.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_latest"."status" IS 'Current trading status as received: open or closed. Any other status upstream sends (e.g. cancelled) is shown as received and counts as neither trading nor closed in the analytics views (only open is trading, only closed is closed); null when the record had none.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_latest"."result" IS 'Current result as received: yes, no, null while unresolved, or any other value upstream sends (e.g. void).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_latest"."open_time" IS 'When trading opens or opened (UTC), as reported upstream; null when upstream sent none.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_latest"."close_time" IS 'When trading closes or closed (UTC), as reported upstream; null when upstream sent none.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_latest"."settlement_time" IS 'When the market settled (UTC), as reported upstream (settlementTime, or resolveAt when that is absent); null while settlement is pending.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_as_of"."status" IS 'Status in force at as_of, as received: open or closed; any other status (e.g. cancelled) is shown as received and is neither trading nor closed. Null if no state had been observed by then, or the record had no status.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_as_of"."result" IS 'Result known at as_of, as received: yes, no, null while unresolved, or any other value upstream sent (e.g. void).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_resolutions"."provider" IS 'Provider listing the market: kalshi, polymarket, bisonfi, or any other value upstream sends.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_resolutions"."category" IS 'Category of the market''s event as received (documented list or any other value, e.g. "climate & science"); null if upstream gave none.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_resolutions"."status" IS 'Current status as received: open or closed. Any other status (e.g. cancelled) is shown as received and is neither open nor closed: closed_first_observed_at ignores it. Null when the record had none.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_resolutions"."result" IS 'Current result as received: yes, no, null while unresolved, or any other value upstream sends (e.g. void).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_resolutions"."is_settled" IS 'True when a result is known (result is not null), whatever its value (yes, no, or e.g. void).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_resolutions"."open_time" IS 'When trading opened (UTC), as reported upstream; null when upstream sent none.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_resolutions"."close_time" IS 'When trading closes or closed (UTC), as reported upstream: the reference point of the lags, which are null when it is.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_resolutions"."settlement_time" IS 'Settlement time as reported upstream (settlementTime, or resolveAt when that is absent) (UTC); null while pending.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."market_resolutions"."closed_first_observed_at" IS 'First observation with status closed (UTC); null if never seen closed (a status such as cancelled does not count as closed).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."data_freshness"."provider" IS 'Provider: kalshi, polymarket, bisonfi, ... as received.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."data_freshness"."category" IS 'Category of the events as received, including values outside the documented list (null for events upstream gave none).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."data_freshness"."open_markets" IS 'Of those, markets whose current status is open; a market with any other status (closed, or e.g. cancelled, or none) is not counted.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."data_coverage"."run_status" IS 'Status of the whole run: running, succeeded, degraded (completed, but rejected more than its threshold of the records it read), failed or aborted.';
