# deskgate: the HTTP interface of a help desk. docs/deploying.md explains every setting used here.

# Build stage: compile the TypeScript sources to dist/ and bundle the command into dist/bin/
# (the package's `npm run build`).
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY scripts ./scripts
COPY src ./src
RUN npm run build

# Runtime stage: production dependencies, the compiled code and the CLI, run as the image's
# unprivileged `node` user with its data on the /data volume.
FROM node:24-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    DESKGATE_DATABASE_URL=sqlite:/data/deskgate.db \
    DESKGATE_FIRST_KEY_FILE=/data/first-api-key.txt \
    DESKGATE_LOG_FORMAT=json
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY bin ./bin
COPY web ./web
COPY docs/replacing-the-osticket-web-service.md ./docs/
COPY --from=build /app/dist ./dist
RUN mkdir /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8080
# Node images have no curl: Node itself asks /healthz.
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}${process.env.DESKGATE_BASE_PATH ?? ''}/healthz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# A young generation of 16 MiB, not the default that grows with the machine's memory (up to 64 MiB):
# docs/decisions/096-young-generation-size.md.
CMD ["node", "--max-semi-space-size=16", "bin/deskgate.js", "serve"]
