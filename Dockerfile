# syntax=docker/dockerfile:1
# workspace-gateway image (docs/deploy.md#container). Three stages:
#   deps     production dependencies only (npm ci --omit=dev), compiled for this platform
#   build    every dependency + `npm run build` → dist/
#   runtime  node:26-slim + deps' node_modules + dist/; no compiler, no dev dependency, no source
# No secret is baked in: configuration comes from the environment at run time, and .env is never
# copied (.dockerignore).
# The newest Node.js LTS line, the one .nvmrc names and .ci/run tests everything on (22, the floor
# of engines.node, runs the suite there too): docs/deploy.md "Node.js versions".
ARG NODE_IMAGE=node:26-bookworm-slim

FROM ${NODE_IMAGE} AS base
WORKDIR /app
# better-sqlite3 downloads a prebuilt binary; these build it from source where none exists.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./

FROM base AS deps
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

FROM base AS build
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY scripts/build.mjs scripts/build.mjs
COPY src src
COPY resolvers resolvers
COPY adapters adapters
COPY schema schema
# Served read-only at GET /docs/<name>.md (the build copies them into dist/docs).
COPY docs docs
RUN npm run build

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=4000 \
    DATA_DIR=/data
WORKDIR /app
COPY package.json ./
COPY --from=deps /app/node_modules node_modules
COPY --from=build /app/dist dist
# The embedded SQLite store (when DATABASE_URL is unset) lives on a volume the node user owns.
RUN mkdir -p /data && chown node:node /data
VOLUME ["/data"]
USER node
EXPOSE 4000
# node, not curl (the slim image has none); /healthz answers as soon as the process listens.
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 4000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# The gateway drains on SIGTERM (SHUTDOWN_DRAIN_MS, SHUTDOWN_TIMEOUT_MS); node is PID 1's only
# child of interest, so it is started directly (exec form), not through npm or a shell.
STOPSIGNAL SIGTERM
# Two malloc arenas for the process's threads instead of glibc's 8 per core: memory a spreadsheet
# worker frees is reused by the next thread's job rather than kept beside a new arena (docs/deploy.md).
ENV MALLOC_ARENA_MAX=2
CMD ["node", "--max-semi-space-size=32", "dist/src/main.js"]
