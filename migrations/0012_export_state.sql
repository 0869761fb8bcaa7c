CREATE TABLE "prediction"."export_partitions" (
	"out_dir" text NOT NULL,
	"table_name" text NOT NULL,
	"day" date NOT NULL,
	"rows" bigint NOT NULL,
	"file_bytes" bigint NOT NULL,
	"min_at" timestamp with time zone,
	"max_at" timestamp with time zone,
	"written_at" timestamp with time zone NOT NULL,
	CONSTRAINT "export_partitions_out_dir_table_name_day_pk" PRIMARY KEY("out_dir","table_name","day")
);
--> statement-breakpoint
CREATE TABLE "prediction"."export_watermarks" (
	"out_dir" text NOT NULL,
	"table_name" text NOT NULL,
	"snapshot_xmin" bigint NOT NULL,
	"exported_at" timestamp with time zone NOT NULL,
	"exporter_version" text NOT NULL,
	CONSTRAINT "export_watermarks_out_dir_table_name_pk" PRIMARY KEY("out_dir","table_name")
);
--> statement-breakpoint
-- What `export` wrote into each output directory, so that a second export rewrites only what
-- changed (src/export/). One statement per breakpoint.
COMMENT ON TABLE "prediction"."export_watermarks" IS 'Per export output directory and exported table: the transaction horizon of the export that last wrote it. Rows written by transactions older than snapshot_xmin are all in its files; a later export rewrites only the day partitions holding a newer row.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."export_watermarks"."out_dir" IS 'Absolute path of the export''s output directory, as the exporting machine saw it.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."export_watermarks"."table_name" IS 'Exported table (its directory under out_dir), e.g. price_history.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."export_watermarks"."snapshot_xmin" IS 'pg_snapshot_xmin of the snapshot the export read (an xid8): every row written by an older transaction is in the files.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."export_watermarks"."exported_at" IS 'When that export finished writing (UTC).';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."export_watermarks"."exporter_version" IS 'Version of prediction-ingest that wrote it (package.json).';
--> statement-breakpoint
COMMENT ON TABLE "prediction"."export_partitions" IS 'Every day partition an export wrote into an output directory (out_dir/table_name/date=day/part-0.parquet), with its row count, file size and time range: what manifest.json lists.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."export_partitions"."out_dir" IS 'Absolute path of the export''s output directory.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."export_partitions"."table_name" IS 'Exported table, e.g. price_history.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."export_partitions"."day" IS 'UTC day of the partition column (valid_from, first_seen_at or started_at) the partition holds.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."export_partitions"."rows" IS 'Rows in the partition''s file.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."export_partitions"."file_bytes" IS 'Size of the partition''s Parquet file, bytes; 0 when the day has no rows and no file.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."export_partitions"."min_at" IS 'Earliest value of the partition column in it (UTC); null when empty.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."export_partitions"."max_at" IS 'Latest value of the partition column in it (UTC); null when empty.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."export_partitions"."written_at" IS 'When the export that wrote this partition finished (UTC).';
