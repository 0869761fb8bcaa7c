CREATE TABLE "prediction"."job_leases" (
	"name" text PRIMARY KEY NOT NULL,
	"holder" text NOT NULL,
	"token" bigint NOT NULL,
	"acquired_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "prediction"."write_lock" (
	"name" text PRIMARY KEY NOT NULL
);
--> statement-breakpoint
-- Coordination that a read-only login can neither hold nor block (instead of advisory locks, which
-- PUBLIC may take): the job leases and the row every write transaction locks first. Locking a row
-- takes UPDATE on its table; readers get nothing on these two, not even the SELECT that the
-- default privileges of 0005 grant prediction_reader on every new table.
REVOKE ALL ON TABLE "prediction"."job_leases", "prediction"."write_lock" FROM PUBLIC;
--> statement-breakpoint
DO $$
BEGIN
  IF EXISTS (SELECT FROM pg_catalog.pg_roles WHERE rolname = 'prediction_reader') THEN
    REVOKE ALL ON TABLE "prediction"."job_leases", "prediction"."write_lock" FROM prediction_reader;
  END IF;
END
$$;
--> statement-breakpoint
INSERT INTO "prediction"."write_lock" ("name") VALUES ('writes') ON CONFLICT DO NOTHING;
--> statement-breakpoint
COMMENT ON TABLE "prediction"."job_leases" IS 'Internal, not readable by prediction_reader: which process runs each job now. A holder renews its lease while it works; anyone may take it once expired. Every write checks that its token still holds the lease.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."job_leases"."name" IS 'Job name: sync (the sync command), crawl, details, orderbooks (the service''s jobs).';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."job_leases"."holder" IS 'The process that took the lease last: service instance id, or host and pid of a sync.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."job_leases"."token" IS 'Fencing token: one more at each acquisition. A process whose token is no longer the current one commits nothing more.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."job_leases"."acquired_at" IS 'When the current holder took the lease (database clock).';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."job_leases"."expires_at" IS 'End of the lease unless renewed (database clock); a released lease has expired. Past it, the lease is free.';
--> statement-breakpoint
COMMENT ON TABLE "prediction"."write_lock" IS 'Internal, not readable by prediction_reader: the row every write transaction locks first (SELECT ... FOR UPDATE), which serializes writers across processes.';
--> statement-breakpoint
COMMENT ON COLUMN "prediction"."write_lock"."name" IS 'The lock''s name; one row, ''writes''.';
