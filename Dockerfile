# Legible — one stateless node. Several nodes share PostgreSQL (DATABASE_URL) and Redis (REDIS_URL);
# see docs/deployment.md. No Docker engine runs in this project's CI, so this file is not built there:
# build and smoke-test it where Docker is available (`docker build -t legible . && docker run -p 8080:8080 legible`).

FROM node:20-slim AS deps
WORKDIR /app
# better-sqlite3 compiles from source when its prebuilt binary cannot be downloaded.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
# .npmrc skips onnxruntime-node's CUDA download (the CPU binary ships in the package).
COPY package.json package-lock.json .npmrc ./
RUN npm ci --omit=dev --no-audit --no-fund

FROM node:20-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    DATA_DIR=/data
# glibc keeps up to 8 malloc arenas per core, each holding the freed memory of the biggest image its
# threads saw: two arenas measured ~90 MB less after warm-up and a lower soak (docs/decisions.md, "OCR memory").
ENV MALLOC_ARENA_MAX=2
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY package.json package-lock.json .npmrc tsconfig.json ./
COPY bin ./bin
COPY src ./src
COPY console ./console
# Bundle the web console now, so the (read-only, non-root) container never writes to /app.
RUN npm run build:console \
 && mkdir -p /data \
 && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8080
STOPSIGNAL SIGTERM
# Liveness only (the process answers); readiness (/readyz: store reachable, not draining) belongs to the orchestrator.
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# node itself is PID 1 (not npm), so SIGTERM reaches the graceful-shutdown handler in src/main.ts.
CMD ["node", "--import", "tsx", "src/main.ts"]
