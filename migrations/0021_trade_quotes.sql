-- Each trade beside the quote in force when it was made (analytics.trades_with_mid).
CREATE VIEW "analytics"."trades_with_mid" AS
SELECT t.trade_id, t.market_id, t.event_id, t.traded_at, t.action, t.side,
       t.price_micro_usd / 1000000 AS price_usd,
       t.amount_micro_usd / 1000000 AS amount_usd,
       CASE t.side WHEN 'yes' THEN t.price_micro_usd / 1000000
                   WHEN 'no' THEN 1 - t.price_micro_usd / 1000000 END AS yes_price_usd,
       q.yes_mid_usd AS quoted_yes_mid_usd,
       q.valid_from AS quote_observed_at,
       CASE t.side WHEN 'yes' THEN t.price_micro_usd / 1000000
                   WHEN 'no' THEN 1 - t.price_micro_usd / 1000000 END - q.yes_mid_usd AS yes_price_minus_mid_usd
  FROM prediction.trades t
  -- The quote in force at the trade: its market's latest price snapshot observed at or before it.
  -- A lateral over the price history on market_id, not a call of analytics.price_as_of: a Citus
  -- cluster runs such a join on the trade's shard, where the coordinator's bookkeeping tables the
  -- function reads are absent.
  LEFT JOIN LATERAL (
    SELECT h.yes_mid_usd, h.valid_from
      FROM analytics.price_history h
     WHERE h.market_id = t.market_id AND h.valid_from <= t.traded_at
     ORDER BY h.valid_from DESC
     LIMIT 1
  ) q ON true;
--> statement-breakpoint
COMMENT ON VIEW "analytics"."trades_with_mid" IS 'Each trade beside the YES mid quoted at its time (the latest price snapshot of its market observed at or before traded_at, nothing later). yes_price_usd is the trade''s price as a YES price (1 - price for a NO trade; null for a side neither yes nor no); yes_price_minus_mid_usd > 0 paid above the mid. Filter by market_id and traded_at: the quote is looked up per trade.';
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
COMMENT ON COLUMN "analytics"."trades_with_mid"."quoted_yes_mid_usd" IS 'YES mid (USD) of the quote in force at traded_at; null when none was observed by then or it had no mid.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."trades_with_mid"."quote_observed_at" IS 'When that quote was first observed.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."trades_with_mid"."yes_price_minus_mid_usd" IS 'yes_price_usd - quoted_yes_mid_usd: above zero, the trade paid more for YES than the mid.';
--> statement-breakpoint
GRANT SELECT ON "analytics"."trades_with_mid" TO prediction_reader;
