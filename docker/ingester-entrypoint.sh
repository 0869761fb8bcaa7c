#!/bin/sh
# Entry point of the ingester's image (Dockerfile): runs one CLI command, `serve` by default.
#
# The image leaves out the embedded Postgres (its binaries are not installed), so a command that
# reads or writes the database needs DATABASE_URL: say so in one line, with the configuration
# exit code, instead of a module-not-found stack trace.
set -eu

case "${1:-}" in
  serve | sync | migrate | demo | status | plan | export)
    if [ -z "${DATABASE_URL:-}" ]; then
      echo "prediction-ingest: DATABASE_URL is not set, and this image has no embedded Postgres: set it to postgres://user:password@host:5432/database" >&2
      exit 2
    fi
    ;;
esac

# exec: node replaces this shell, so it receives SIGTERM itself and shuts down gracefully.
exec node /app/dist/cli/main.js "$@"
