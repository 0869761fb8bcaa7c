ALTER TABLE "prediction"."ingest_runs" ADD COLUMN "server_rate_limit" jsonb;--> statement-breakpoint
ALTER TABLE "prediction"."upstream_shapes" ADD COLUMN "changes" jsonb;--> statement-breakpoint
COMMENT ON COLUMN "prediction"."ingest_runs"."server_rate_limit" IS 'The rate-limit window the upstream''s gateway reported on the run''s answers (x-ratelimit-remaining, -current, -reset), e.g. {"requests": 5, "window_seconds": 4, "requests_per_minute": 75, "observed_at": "2026-07-05T12:00:00Z"}; null when no answer carried the headers.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."upstream_shapes"."changes" IS 'How the shape differs from what the service sends today (its live contract), as [{"kind", "path", "detail"}] with kind new_field, field_gone, changed_type or new_value; [] when it matches. The fingerprint is that of these changes, so every record matching the contract shares one row per endpoint whatever its nulls. Null for a shape recorded before drift was measured against the contract (migration 0022).';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."ingest_runs"."records_by_endpoint" IS 'Records per endpoint label by outcome, e.g. {"/events": {"accepted": 40, "accepted_with_drift": 2, "rejected": 1}}: accepted = stored, as the service sends it today; accepted_with_drift = stored, but differing from what the service sends today (a new field, a field gone, a changed type, a new value of a list; runs before migration 0022 measured against the February spec); rejected = quarantined in rejected_records.';
--> statement-breakpoint
-- Drift is now measured against today's contract (prediction.upstream_shapes.changes): the view
-- lists each change once, not each shape, and a shape that matches the contract lists nothing.
DROP VIEW "analytics"."upstream_drift";
--> statement-breakpoint
CREATE VIEW "analytics"."upstream_drift" AS
WITH changed AS (
  SELECT u.endpoint, c.value->>'kind' AS kind, c.value->>'path' AS path, c.value->>'detail' AS detail,
         u.first_seen_at, u.last_seen_at, u.records_seen, u.example
    FROM prediction.upstream_shapes u
    CROSS JOIN LATERAL jsonb_array_elements(CASE WHEN jsonb_typeof(u.changes) = 'array' THEN u.changes ELSE '[]'::jsonb END) AS c(value)
), latest AS (
  SELECT endpoint, max(last_seen_at) AS last_seen_at FROM prediction.upstream_shapes GROUP BY endpoint
)
SELECT
  ch.endpoint,
  ch.kind,
  ch.path,
  ch.detail,
  min(ch.first_seen_at) AS first_seen_at,
  max(ch.last_seen_at) AS last_seen_at,
  sum(ch.records_seen)::bigint AS records_seen,
  max(ch.last_seen_at) = l.last_seen_at AS is_current,
  (array_agg(ch.example ORDER BY ch.first_seen_at))[1] AS example
FROM changed ch JOIN latest l ON l.endpoint = ch.endpoint
GROUP BY ch.endpoint, ch.kind, ch.path, ch.detail, l.last_seen_at;
--> statement-breakpoint
COMMENT ON VIEW "analytics"."upstream_drift" IS 'How the records of each upstream endpoint differ from what the service sends today (its live contract): one row per endpoint × change (a new field, a field gone, a changed type, a new value of a list), with when it was first and last received and by how many records. Records that match the contract, nulls included, list nothing. Until migration 0022 this view listed one row per record shape against the February spec; those shapes stay in prediction.upstream_shapes. Order by endpoint, first_seen_at for the timeline.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."upstream_drift"."endpoint" IS 'Endpoint label the records came from, e.g. /events, /events#markets, /orderbook/{marketId}.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."upstream_drift"."kind" IS 'new_field (a key the contract lacks), field_gone (a key the contract requires, absent), changed_type (a value of another JSON type; a null is never one), new_value (a value outside one of the contract''s lists, e.g. a status).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."upstream_drift"."path" IS 'Key path in the record, array items as [] (e.g. pricing.volume, marketOptions[].label); empty for the record itself.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."upstream_drift"."detail" IS 'new_field: its JSON type(s); field_gone: the type the contract expects; changed_type: expected -> received (e.g. string -> number); new_value: the value as JSON (e.g. "suspended").';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."upstream_drift"."first_seen_at" IS 'Earliest time a record with this change was received (UTC).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."upstream_drift"."last_seen_at" IS 'Latest time a record with this change was received (UTC).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."upstream_drift"."records_seen" IS 'Records with this change received, over all runs.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."upstream_drift"."is_current" IS 'True when the endpoint''s latest records still showed it: its last_seen_at equals the latest last_seen_at of any shape of the endpoint.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."upstream_drift"."example" IS 'One record with this change as received, from when it was first seen (jsonb-safe; truncated if huge).';
--> statement-breakpoint
GRANT SELECT ON "analytics"."upstream_drift" TO prediction_reader;
