-- Each trade beside the quote in force when it was made. After 0019: on a Citus cluster a view
-- over analytics.price_as_of must be created after that function's PL/pgSQL definition, or Citus
-- refuses the function's replacement as a circular dependency between distributed objects.
CREATE VIEW "analytics"."trades_with_mid" AS
SELECT t.trade_id, t.market_id, t.event_id, t.traded_at, t.action, t.side,
       t.price_micro_usd / 1000000 AS price_usd,
       t.amount_micro_usd / 1000000 AS amount_usd,
       CASE t.side WHEN 'yes' THEN t.price_micro_usd / 1000000
                   WHEN 'no' THEN 1 - t.price_micro_usd / 1000000 END AS yes_price_usd,
       q.yes_mid_usd AS quoted_yes_mid_usd,
       q.quote_observed_at,
       CASE t.side WHEN 'yes' THEN t.price_micro_usd / 1000000
                   WHEN 'no' THEN 1 - t.price_micro_usd / 1000000 END - q.yes_mid_usd AS yes_price_minus_mid_usd
  FROM prediction.trades t
  LEFT JOIN LATERAL analytics.price_as_of(t.market_id, t.traded_at) q ON true;
--> statement-breakpoint
COMMENT ON VIEW "analytics"."trades_with_mid" IS 'Each trade beside the YES mid quoted at its time (analytics.price_as_of at traded_at: the latest quote observed at or before it, nothing later). yes_price_usd is the trade''s price as a YES price (1 - price for a NO trade; null for a side neither yes nor no); yes_price_minus_mid_usd > 0 paid above the mid. Filter by market_id and traded_at: the quote is looked up per trade.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."trades_with_mid"."trade_id" IS 'The feed''s trade id.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."trades_with_mid"."market_id" IS 'Market traded.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."trades_with_mid"."event_id" IS 'Its event, as the feed sent it.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."trades_with_mid"."traded_at" IS 'When the trade was made (UTC).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."trades_with_mid"."action" IS 'buy or sell, as received.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."trades_with_mid"."side" IS 'yes or no, as received.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."trades_with_mid"."price_usd" IS 'Price paid per contract of the side traded, USD.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."trades_with_mid"."amount_usd" IS 'Amount of the trade, USD.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."trades_with_mid"."yes_price_usd" IS 'The price as a YES price, USD: the price for a YES trade, 1 - price for a NO trade, null for another side.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."trades_with_mid"."quoted_yes_mid_usd" IS 'YES mid (USD) of the quote in force at traded_at (analytics.price_as_of); null when none was observed by then or it had no mid.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."trades_with_mid"."quote_observed_at" IS 'When that quote was first observed.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."trades_with_mid"."yes_price_minus_mid_usd" IS 'yes_price_usd - quoted_yes_mid_usd: above zero, the trade paid more for YES than the mid.';
--> statement-breakpoint
GRANT SELECT ON "analytics"."trades_with_mid" TO prediction_reader;
