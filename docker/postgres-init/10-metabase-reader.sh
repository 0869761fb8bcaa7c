#!/bin/bash
# Run once by the postgres image, on the first start with an empty data directory (files in
# /docker-entrypoint-initdb.d). Creates the login Metabase uses to read the ingest database.
#
# Privileges come from the app's migrations, which grant SELECT on the `prediction` and
# `analytics` schemas to the NOLOGIN role `prediction_reader`. Migrations run later (when the
# ingester starts), so the role may not exist yet: it is created here if absent, and the
# migration must create it only if absent too. `metabase_reader` is a member and inherits them.
#
# Idempotent, and free of `set -u` and `exit`: the entrypoint sources a script that is not
# executable, and those would leak into (or end) the entrypoint itself.
#
# There is no default password. docker-compose.yml refuses to start without
# METABASE_READER_PASSWORD; should this run without it all the same, the expansion below stops the
# initialisation with that message. The volume is then initialised without the login, and a later
# start would not run this script again, so remove the volume before retrying.
set -e

: "${METABASE_READER_PASSWORD:?is not set: set it in .env, then remove the half-initialised volume (docker volume rm prediction-ingest_postgres-data) and start again}"

psql -v ON_ERROR_STOP=1 --no-psqlrc --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" \
  --set reader_password="$METABASE_READER_PASSWORD" <<'SQL'
SELECT 'CREATE ROLE prediction_reader NOLOGIN'
WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'prediction_reader')
\gexec

-- format(%L) quotes the password as a literal; psql substitutes :'reader_password' itself,
-- so the value never passes through the shell's quoting.
SELECT format('CREATE ROLE metabase_reader LOGIN PASSWORD %L', :'reader_password')
WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'metabase_reader')
UNION ALL
SELECT format('ALTER ROLE metabase_reader LOGIN PASSWORD %L', :'reader_password')
WHERE EXISTS (SELECT FROM pg_roles WHERE rolname = 'metabase_reader')
\gexec

GRANT prediction_reader TO metabase_reader;
-- Role settings are not inherited through membership, so the login gets its own: a runaway BI
-- query cannot hold locks and I/O for long (the same limit as prediction_reader's), and even a
-- privilege granted by mistake cannot be used to write from a dashboard.
ALTER ROLE metabase_reader SET statement_timeout = '60s';
-- A dashboard session left idle inside a transaction would hold its locks (and hold back a
-- migration) indefinitely; the same limit as prediction_reader's.
ALTER ROLE metabase_reader SET idle_in_transaction_session_timeout = '60s';
ALTER ROLE metabase_reader SET default_transaction_read_only = on;
SQL
