ALTER TABLE "prediction"."events" ADD COLUMN "content_hash" text;--> statement-breakpoint
ALTER TABLE "prediction"."markets" ADD COLUMN "content_hash" text;--> statement-breakpoint
COMMENT ON COLUMN "prediction"."events"."content_hash" IS 'Hash of the event''s values as last received (internal): an identical record is recognised without being sent whole.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."markets"."content_hash" IS 'Hash of the market''s values as last received (internal): an identical record is recognised without being sent whole.';
