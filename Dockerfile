# syntax=docker/dockerfile:1
# The service in one image, for every role (PROCESS_ROLES=api, worker, migrate, or several).
#   docker build -t fleet-hos .
#   docker run --rm -p 3000:3000 -e NODE_ENV=production -e DATABASE_URL=postgres://… -e JWT_SECRET=… -e ENCRYPTION_KEY=… fleet-hos
# The base image is named by NODE_IMAGE, so that it can be swapped (a mirror, a pinned digest, a local stand-in).
ARG NODE_IMAGE=node:24-bookworm-slim

# ---- build: every dependency, the server compiled to dist/, the dashboard to web/dist/ ----
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY web/package.json web/
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY scripts/build.ts scripts/
COPY src src
COPY web web
RUN npm run build

# ---- production dependencies only (the dashboard's packages are bundled into web/dist, not needed here) ----
FROM ${NODE_IMAGE} AS dependencies
WORKDIR /app
COPY package.json package-lock.json ./
COPY web/package.json web/
RUN npm ci --omit=dev --workspaces=false --ignore-scripts --no-audit --no-fund && npm cache clean --force

# ---- runtime ----
FROM ${NODE_IMAGE}
ENV NODE_ENV=production \
    PORT=3000 \
    HOST=0.0.0.0 \
    DATA_DIR=/data
WORKDIR /app
COPY --from=dependencies /app/node_modules node_modules
COPY --from=build /app/dist dist
COPY --from=build /app/web/dist web/dist
COPY package.json ./
# The embedded database (when DATABASE_URL is unset) and the mail outbox live in /data, owned by the
# unprivileged user the service runs as (the official image's `node`, uid 1000).
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
# Liveness: the process answers and reaches its database (worker-only processes answer it too).
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/v1/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# node is PID 1: the service handles SIGTERM and SIGINT itself (drain, then exit within
# SHUTDOWN_TIMEOUT_SECONDS) and starts no long-lived children, so no init process is needed.
# The V8 settings go on the command line (src/runtime.ts says why); NODE_OPTIONS is left to the operator.
STOPSIGNAL SIGTERM
ENTRYPOINT ["node", "--heap-growing-percent=50", "--max-semi-space-size=8", "--liftoff-only", "dist/main.js"]
