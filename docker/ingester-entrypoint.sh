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

# `serve` against the real API without a key would exit 3 at once, and compose's restart policy would
# start it again and again. In compose that is the `demo` profile's case (no key; the `demo`
# service writes simulated data): wait instead, saying why, until the container is stopped.
if [ "${1:-serve}" = serve ] && [ -z "${PREDICTION_API_KEY:-}" ] && [ -z "${PREDICTION_API_URL:-}" ] &&
  [ "$(printf %s "${PREDICTION_KEYLESS:-}" | tr '[:upper:]' '[:lower:]')" != true ]; then
  echo "prediction-ingest: PREDICTION_API_KEY is not set, so the ingester does not read the real API; it waits here. Set the key in .env and run \`docker compose up -d\`, or try it without one: \`docker compose --profile demo up\` (docs/operations.md)" >&2
  # exec: sleep becomes the container's main process and ends with it on SIGTERM.
  exec sleep infinity
fi

# exec: node replaces this shell, so it receives SIGTERM itself and shuts down gracefully.
exec node /app/dist/cli/main.js "$@"
