#!/bin/bash
# Run once by the postgres image, on the first start with an empty data directory (files in
# /docker-entrypoint-initdb.d), before 10-metabase-reader.sh. The image makes POSTGRES_USER
# (`prediction`) a superuser: the ingester logs in as `ingester` instead, the owner of the ingest
# database and no superuser. It may create roles (the migrations create `prediction_reader`), end
# its own blockers of a migration (pg_signal_backend) and see what holds a lock (pg_read_all_stats).
#
# Also run by hand on a volume created before this file existed (docs/operations.md, "The
# ingester's login"): then it hands the database and everything in it from `prediction` over.
# Idempotent; free of `set -u` and `exit` (the entrypoint sources a script that is not executable).
set -e

: "${INGESTER_DB_PASSWORD:?is not set: set it in .env, then remove the half-initialised volume (docker volume rm prediction-ingest_postgres-data) and start again}"

psql -v ON_ERROR_STOP=1 --no-psqlrc --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" \
  --set ingester_password="$INGESTER_DB_PASSWORD" --set superuser="$POSTGRES_USER" <<'SQL'
-- format(%L) quotes the password as a literal; psql substitutes :'ingester_password' itself.
SELECT format('CREATE ROLE ingester LOGIN NOSUPERUSER CREATEROLE PASSWORD %L', :'ingester_password')
WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'ingester')
UNION ALL
SELECT format('ALTER ROLE ingester LOGIN NOSUPERUSER CREATEROLE PASSWORD %L', :'ingester_password')
WHERE EXISTS (SELECT FROM pg_roles WHERE rolname = 'ingester')
\gexec

GRANT pg_signal_backend, pg_read_all_stats TO ingester;
-- The migrations set prediction_reader's limits (ALTER ROLE ... SET): the ingester administers the
-- role (a member of it, which adds nothing to what an owner may read).
SELECT 'CREATE ROLE prediction_reader NOLOGIN'
WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'prediction_reader')
\gexec
GRANT prediction_reader TO ingester WITH ADMIN OPTION;
SELECT format('ALTER DATABASE %I OWNER TO ingester', current_database())
\gexec

-- What the superuser owns in this database (a volume the ingester used to log in as it), but the
-- system's, goes to the ingester: schemas, tables, views, sequences not owned by a column,
-- routines and types.
SELECT format('ALTER SCHEMA %I OWNER TO ingester', n.nspname)
  FROM pg_namespace n
 WHERE n.nspowner = :'superuser'::regrole AND n.nspname NOT LIKE 'pg\_%' AND n.nspname NOT IN ('information_schema', 'public')
\gexec
SELECT format('ALTER TABLE %s OWNER TO ingester', c.oid::regclass)
  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
 WHERE c.relowner = :'superuser'::regrole AND c.relkind IN ('r', 'p', 'v', 'm', 'f', 'S')
   AND n.nspname NOT LIKE 'pg\_%' AND n.nspname <> 'information_schema'
   AND NOT EXISTS (SELECT FROM pg_depend d WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid AND d.deptype IN ('a', 'i'))
\gexec
SELECT format('ALTER ROUTINE %s OWNER TO ingester', p.oid::regprocedure)
  FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
 WHERE p.proowner = :'superuser'::regrole AND n.nspname NOT LIKE 'pg\_%' AND n.nspname <> 'information_schema'
\gexec
SELECT format('ALTER TYPE %s OWNER TO ingester', t.oid::regtype)
  FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
 WHERE t.typowner = :'superuser'::regrole AND t.typtype IN ('e', 'd', 'r') AND n.nspname NOT LIKE 'pg\_%'
   AND n.nspname <> 'information_schema'
\gexec
SQL
