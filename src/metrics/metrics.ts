import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * Every Prometheus series Legible exports, on a registry of its own (one per app, so tests that
 * build several apps in one process do not collide on prom-client's global registry).
 * Features record into these; `/metrics` serves `registry.metrics()`.
 *
 * @example
 *   const metrics = createMetrics();
 *   metrics.keyCacheLookups.inc({ result: 'hit' });
 *   const text = await metrics.registry.metrics();
 */
export interface Metrics {
  readonly registry: Registry;
  /** Request latency by route pattern, method and status code; its `_count` is the request rate. */
  readonly httpRequestDuration: Histogram<'method' | 'route' | 'status_code'>;
  /** Images waiting for an OCR worker, read at scrape time from the source set with `observeOcrQueue`. */
  readonly ocrQueueDepth: Gauge;
  /** Time per OCR stage (decode, detect, recognize, …) when the engine reports stage timings. */
  readonly ocrStageDuration: Histogram<'stage'>;
  /** API-key verifier cache lookups: `result` is `hit` or `miss`. */
  readonly keyCacheLookups: Counter<'result'>;
  /** Requests refused with 429 by the rate limiter, by route. */
  readonly rateLimitRefusals: Counter<'route'>;
  /** Rate-limit decisions taken by the local limiter because Redis was unreachable. */
  readonly rateLimitFailOpen: Counter;
  /** Cross-node invalidation messages received (PostgreSQL LISTEN/NOTIFY), by kind. */
  readonly invalidationsReceived: Counter<'kind'>;
  /** Images handed to the OCR engine, by feature (TEXT_DETECTION, DOCUMENT_TEXT_DETECTION) and outcome (ok, no_text, or the failure code in lower case). */
  readonly ocrImages: Counter<'feature' | 'outcome'>;
  /** Per image: from handing it to the engine until its result, queue wait included. */
  readonly ocrImageDuration: Histogram<'feature'>;
  /** Per image: time waiting for a free worker (total time minus the worker's own stage time). */
  readonly ocrQueueWait: Histogram;
  /** Registers the function the queue-depth gauge reads at scrape time. */
  observeOcrQueue(read: () => number): void;
  /** Registers what the worker gauges read at scrape time: configured and busy workers, models loaded. */
  observeOcrWorkers(read: () => { workers: number; busy: number; ready: boolean }): void;
  /** Records one image's stage timings (ms, as the OCR pipeline reports them; counts are skipped). */
  observeOcrStages(timingsMs: Record<string, number>): void;
}

/** The pipeline's timed stages (src/ocr/ocr-pipeline.ts); other entries of its timings are counts. */
const OCR_STAGES = new Set(['decode', 'detect', 'classify', 'recognize', 'layout']);

const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** Gauges read at scrape time; not part of the interface (nothing records into them). */
function workerGauges(registers: Registry[], read: () => { workers: number; busy: number; ready: boolean }): Record<string, never> {
  new Gauge({
    name: 'legible_ocr_workers',
    help: 'OCR worker threads configured (OCR_WORKERS).',
    registers,
    collect() {
      this.set(read().workers);
    },
  });
  new Gauge({
    name: 'legible_ocr_workers_busy',
    help: 'OCR workers reading an image right now.',
    registers,
    collect() {
      this.set(read().busy);
    },
  });
  new Gauge({
    name: 'legible_ocr_models_ready',
    help: '1 once every OCR worker has loaded its models (OCR_WARM), else 0.',
    registers,
    collect() {
      this.set(read().ready ? 1 : 0);
    },
  });
  return {};
}

export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'legible_' });
  const registers = [registry];
  let readQueue: () => number = () => 0;
  let readWorkers: () => { workers: number; busy: number; ready: boolean } = () => ({ workers: 0, busy: 0, ready: false });
  const ocrStageDuration = new Histogram({
    name: 'legible_ocr_stage_duration_seconds',
    help: 'Time spent in each OCR stage.',
    labelNames: ['stage'],
    buckets: LATENCY_BUCKETS,
    registers,
  });

  return {
    registry,
    httpRequestDuration: new Histogram({
      name: 'legible_http_request_duration_seconds',
      help: 'HTTP request latency by route pattern, method and status code.',
      labelNames: ['method', 'route', 'status_code'],
      buckets: LATENCY_BUCKETS,
      registers,
    }),
    ocrQueueDepth: new Gauge({
      name: 'legible_ocr_queue_depth',
      help: 'Images waiting for a free OCR worker.',
      registers,
      collect() {
        this.set(readQueue());
      },
    }),
    ocrStageDuration,
    ocrImages: new Counter({
      name: 'legible_ocr_images_total',
      help: 'Images handed to the OCR engine, by feature and outcome (ok, no_text, or the failure code in lower case).',
      labelNames: ['feature', 'outcome'],
      registers,
    }),
    ocrImageDuration: new Histogram({
      name: 'legible_ocr_image_duration_seconds',
      help: 'Time per image from hand-off to the OCR engine until its result, queue wait included.',
      labelNames: ['feature'],
      buckets: LATENCY_BUCKETS,
      registers,
    }),
    ocrQueueWait: new Histogram({
      name: 'legible_ocr_queue_wait_seconds',
      help: "Time an image waited for a free OCR worker (total time minus the worker's stage time).",
      buckets: LATENCY_BUCKETS,
      registers,
    }),
    ...workerGauges(registers, () => readWorkers()),
    keyCacheLookups: new Counter({
      name: 'legible_key_cache_lookups_total',
      help: 'API-key verifier cache lookups by result (hit or miss).',
      labelNames: ['result'],
      registers,
    }),
    rateLimitRefusals: new Counter({
      name: 'legible_rate_limit_refusals_total',
      help: 'Requests refused with 429 RESOURCE_EXHAUSTED, by route.',
      labelNames: ['route'],
      registers,
    }),
    rateLimitFailOpen: new Counter({
      name: 'legible_rate_limit_fail_open_total',
      help: 'Rate-limit decisions made by the local limiter because Redis was unreachable.',
      registers,
    }),
    invalidationsReceived: new Counter({
      name: 'legible_cluster_invalidations_received_total',
      help: 'Cache invalidations received from other nodes (PostgreSQL NOTIFY), by kind.',
      labelNames: ['kind'],
      registers,
    }),
    observeOcrQueue(read) {
      readQueue = read;
    },
    observeOcrWorkers(read) {
      readWorkers = read;
    },
    observeOcrStages(timingsMs) {
      for (const [stage, ms] of Object.entries(timingsMs)) {
        if (OCR_STAGES.has(stage)) ocrStageDuration.observe({ stage }, ms / 1000);
      }
    },
  };
}
