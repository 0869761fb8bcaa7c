-- What an export's files were written as, per table (src/export/exportLayout.ts): an export whose
-- columns, types, source or schema version differ rewrites every day of the table, rather than
-- only the days whose rows changed, which would leave files of two layouts side by side.
ALTER TABLE "prediction"."export_watermarks" ADD COLUMN "layout" text;
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."export_watermarks"."layout" IS 'Fingerprint of the layout the table''s files were written in (columns and types, source, schema version); another one rewrites every day of the table. Null: written before 0015, rewritten whole by the next export.';
