# Quarry in a container (issue 38.8). Built in one stage, run in a slim one as the unprivileged `node` user, on
# Node.js 24: there the store loads better-sqlite3 13, whose compiled module ships inside its npm package, so no
# compiler is needed (the Node 20 driver, better-sqlite3-node20, is left unbuilt: src/store/sqlite/driver.ts). Embedded mode keeps its SQLite file and secret in the /data volume; for the
# PostgreSQL + Redis mode see compose.yaml. Every variable set here is one src/config.ts reads (a test checks it).
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# Scripts off: the sources are not here yet (prepare builds them below), and no native module needs building.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY bin ./bin
COPY scripts/build.mjs ./scripts/build.mjs
COPY src ./src
RUN node scripts/build.mjs --force && npm prune --omit=dev --no-audit --no-fund

FROM node:24-bookworm-slim
WORKDIR /app
ENV PORT=8080 \
    HOST=0.0.0.0 \
    QUARRY_DATA_DIR=/data
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/bin ./bin
COPY --from=build /app/scripts/build.mjs ./scripts/build.mjs
# The dashboard is served from its source folder (no build step), and the CLI's build check reads the sources.
COPY --from=build /app/src ./src
COPY --from=build /app/tsconfig.json /app/tsconfig.build.json ./
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# SIGTERM lets running calls finish (up to QUARRY_UPSTREAM_TIMEOUT_MS) before the process exits.
STOPSIGNAL SIGTERM
CMD ["node", "dist/server/main.js"]
