import crypto from 'node:crypto';
import os from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import { AppError, GRPC_CODES } from '../errors.ts';
import type { ObjectStore } from '../storage/object-store.ts';
import { parseGsUri } from '../storage/object-store.ts';
import { NO_KEY, type UsageRepository } from '../usage/usage-repository.ts';
import { annotateOne, type AnnotateDeps } from '../vision/annotate-images.ts';
import { readProtoJson } from '../vision/proto-json-reader.ts';
import type { JsonObject } from '../vision/vision-response.ts';
import { annotateRenderedPage, echoInputConfig, resolveFileBytes, type AnnotateFilesDeps } from '../vision/files/annotate-files.ts';
import {
  AsyncBatchAnnotateFilesRequestSchema,
  AsyncBatchAnnotateImagesRequestSchema,
  type AsyncBatchAnnotateFilesRequest,
  type AsyncBatchAnnotateImagesRequest,
  type OutputConfig,
} from '../vision/files/file-request-schema.ts';
import type { JobProgress, OperationRow, OperationsRepository } from './operations-repository.ts';

export interface OperationRunnerOptions {
  repo: OperationsRepository;
  store: ObjectStore;
  files: AnnotateFilesDeps;
  imageSource: AnnotateDeps['imageSource'];
  usage: UsageRepository;
  log: FastifyBaseLogger;
  /** How long a claimed job stays this node's without a heartbeat. */
  leaseMs: number;
  /** How often an idle node looks for work (a new job on this node wakes it at once). */
  pollMs: number;
  /** Finished operations are deleted this long after they end. */
  retentionMs: number;
}

/** Google's default and range for OutputConfig.batch_size. */
export const DEFAULT_BATCH_SIZE = 20;
/** Claims of one job (a crash each time, e.g. a file that kills its node) before it is given up. */
const MAX_ATTEMPTS = 5;
/** Pages of a file whose results are kept in the operation (no gcsDestination). */
export const INLINE_MAX_PAGES = 50;
const pageOf = (r: JsonObject) => Number((r.context as { pageNumber?: number } | undefined)?.pageNumber ?? 0);
/** Pages (images) waiting for the OCR engine per job: enough to keep every worker busy, no more. */
const MAX_IN_FLIGHT = 4;

export function outputPrefix(config: OutputConfig | undefined): { bucket: string; prefix: string; uri: string } {
  const uri = config?.gcsDestination?.uri ?? '';
  const parsed = parseGsUri(uri);
  if (!parsed) throw new Error(`invalid destination ${uri}`);
  return { bucket: parsed.bucket, prefix: parsed.name, uri };
}

/** Google's output object names: `{prefix}output-{first}-to-{last}.json`, one per batch. */
export const batchObjectName = (prefix: string, first: number, last: number) => `${prefix}output-${first}-to-${last}.json`;

/** The request as stored: proto3 JSON with bytes in base64, read back with the same reader. */
export function storeRequest(request: unknown): string {
  return JSON.stringify(request, (_k, v: unknown) => (v instanceof Uint8Array ? Buffer.from(v).toString('base64') : v));
}

class Cancelled extends Error {}
class LeaseLost extends Error {}
class Stopped extends Error {}

/**
 * Runs asyncBatchAnnotate jobs from the operations table: claims one (a lease renewed by a
 * heartbeat), writes each batch of `batchSize` pages as one output object (atomically, named by the
 * batch, so a batch redone after a crash replaces itself and no page appears twice), records the
 * batch in the row, and ends the operation with its response or error. Interrupted jobs — a killed
 * node — are claimed again when their lease expires and resume after their last recorded batch.
 */
export function createOperationRunner(opts: OperationRunnerOptions) {
  const owner = `${os.hostname()}:${process.pid}:${crypto.randomBytes(4).toString('hex')}`;
  let stopped = true;
  let wake: (() => void) | undefined;
  let loop: Promise<void> | undefined;
  let lastPurge = 0;

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  async function withRetry<T>(fn: () => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt += 1) {
      try {
        return await fn();
      } catch (err) {
        // The engine's queue is shared with synchronous requests: wait for room instead of failing the page.
        if (err instanceof AppError && err.code === 'UNAVAILABLE' && attempt < 600 && !stopped) {
          await new Promise((resolve) => setTimeout(resolve, 500));
          continue;
        }
        throw err;
      }
    }
  }

  /**
   * Starts each item's work in order (`start` prepares it, e.g. renders a page, and hands back the
   * unfinished OCR in a box so it is not awaited), with at most MAX_IN_FLIGHT unfinished: rendering
   * the next page overlaps the OCR of the previous ones. Results keep the items' order.
   */
  async function bounded<I>(
    items: readonly I[],
    start: (item: I) => Promise<{ result: Promise<JsonObject> }>,
    onPageDone?: () => void,
  ): Promise<JsonObject[]> {
    const pending: Array<Promise<JsonObject>> = [];
    for (const item of items) {
      // Shutting down: stop between pages; the job is released and resumes from its last batch.
      if (stopped) throw new Stopped();
      if (pending.length >= MAX_IN_FLIGHT) await pending[pending.length - MAX_IN_FLIGHT];
      pending.push(
        (await start(item)).result.then((r) => {
          onPageDone?.();
          return r;
        }),
      );
    }
    return Promise.all(pending);
  }

  async function runJob(row: OperationRow): Promise<void> {
    const progress = JSON.parse(row.progress) as JobProgress;
    // Pages of recorded batches (what a resumed job has really kept), then each page as it finishes.
    let donePages = progress.units.reduce((n, u) => n + (u?.pages ?? 0), 0);
    let livePages = donePages;
    const pageDone = () => {
      livePages += 1;
      opts.repo
        .setDonePages(row.operation_id, owner, livePages)
        .catch((err: unknown) => opts.log.warn({ err }, 'could not record operation progress'));
    };
    let cancelled = false;
    const heartbeat = setInterval(
      () => {
        opts.repo
          .renew(row.operation_id, owner, opts.leaseMs)
          .then((state) => {
            if (state.cancelRequested) cancelled = true;
          })
          .catch((err: unknown) => opts.log.warn({ err }, 'could not renew an operation lease'));
      },
      Math.max(200, Math.floor(opts.leaseMs / 3)),
    );
    const checkpoint = async (unit: number, batch: number, pages: number, totalPages?: number) => {
      progress.units[unit] ??= { batches: [] };
      progress.units[unit].batches.push(batch);
      progress.units[unit].pages = (progress.units[unit].pages ?? 0) + pages;
      if (totalPages !== undefined) progress.units[unit].totalPages = totalPages;
      donePages += pages;
      livePages = donePages;
      const total = progress.units.reduce((sum, u) => sum + (u.totalPages ?? 0), 0);
      if (!(await opts.repo.saveProgress(row.operation_id, owner, { progress, donePages, totalPages: total || undefined })))
        throw new LeaseLost();
      if (cancelled || (await opts.repo.renew(row.operation_id, owner, opts.leaseMs)).cancelRequested) throw new Cancelled();
    };
    try {
      if (row.attempts > MAX_ATTEMPTS) {
        await opts.repo.finish(row.operation_id, owner, {
          state: 'DONE',
          error: { code: GRPC_CODES.ABORTED, message: `The operation was interrupted ${MAX_ATTEMPTS} times and was given up.` },
        });
        return;
      }
      if ((await opts.repo.renew(row.operation_id, owner, opts.leaseMs)).cancelRequested) throw new Cancelled();
      const response =
        row.kind === 'files' ? await runFiles(row, progress, checkpoint, pageDone) : await runImages(row, progress, checkpoint, pageDone);
      await opts.repo.finish(
        row.operation_id,
        owner,
        'error' in response ? { state: 'DONE', error: response.error } : { state: 'DONE', response: response.response },
      );
      await opts.usage.record({
        projectId: row.project_id,
        api: 'ocr',
        key: row.key_id ?? NO_KEY,
        at: new Date(),
        outcome: 'error' in response ? 'client_error' : 'ok',
        requests: 0,
        images: donePages,
      });
    } catch (err) {
      if (err instanceof Cancelled) {
        await opts.repo.finish(row.operation_id, owner, {
          state: 'CANCELLED',
          error: { code: GRPC_CODES.CANCELLED, message: 'The operation was cancelled.' },
        });
      } else if (err instanceof LeaseLost) {
        opts.log.warn({ operation: row.operation_id }, 'lost the lease of an operation; another node runs it');
      } else if (stopped) {
        await opts.repo.release(row.operation_id, owner).catch(() => undefined);
      } else {
        opts.log.error({ err, operation: row.operation_id }, 'operation failed');
        await opts.repo.finish(row.operation_id, owner, {
          state: 'DONE',
          error: { code: GRPC_CODES.INTERNAL, message: 'Internal error while running the operation.' },
        });
      }
    } finally {
      clearInterval(heartbeat);
    }
  }

  type Outcome = { response: unknown } | { error: { code: number; message: string } };
  type Checkpoint = (unit: number, batch: number, pages: number, totalPages?: number) => Promise<void>;

  async function writeBatch(projectId: string, bucket: string, name: string, body: unknown): Promise<void> {
    await opts.store.put(projectId, bucket, name, Buffer.from(JSON.stringify(body)), 'application/json');
  }

  async function runFiles(row: OperationRow, progress: JobProgress, checkpoint: Checkpoint, pageDone: () => void): Promise<Outcome> {
    const read = readProtoJson<AsyncBatchAnnotateFilesRequest>(AsyncBatchAnnotateFilesRequestSchema, JSON.parse(row.request));
    if (!read.ok) return { error: { code: GRPC_CODES.INVALID_ARGUMENT, message: read.violations[0].description } };
    const responses: unknown[] = [];
    for (const [unit, request] of read.value.requests.entries()) {
      const file = await resolveFileBytes(request.inputConfig, row.project_id, opts.files);
      if (!file.ok) return { error: file.error };
      const fileKey = `${row.operation_id}:${unit}`;
      const counted = await opts.files.documents.pages(file.mimeType, file.bytes, [], 0, fileKey);
      if (!counted.ok) return { error: counted.error };
      const totalPages = counted.totalPages;
      const batchSize = request.outputConfig?.batchSize || DEFAULT_BATCH_SIZE;
      // No destination: the results go into the operation itself (Legible extension, small files only).
      const inline = !request.outputConfig?.gcsDestination?.uri;
      if (inline && totalPages > INLINE_MAX_PAGES) {
        return {
          error: {
            code: GRPC_CODES.INVALID_ARGUMENT,
            message: `The file has ${totalPages} pages; results without outputConfig.gcsDestination are kept in the operation for files of at most ${INLINE_MAX_PAGES} pages.`,
          },
        };
      }
      const out = inline ? undefined : outputPrefix(request.outputConfig);
      const uri = request.inputConfig?.gcsSource?.uri;
      const done = new Set(progress.units[unit]?.batches ?? []);
      for (let batch = 0; batch * batchSize < totalPages; batch += 1) {
        if (done.has(batch)) continue;
        const first = batch * batchSize + 1;
        const last = Math.min(totalPages, first + batchSize - 1);
        const pages = Array.from({ length: last - first + 1 }, (_, i) => first + i);
        const pageResponses = await bounded(
          pages,
          async (pageNumber) => {
            const rendered = await opts.files.documents.pages(file.mimeType, file.bytes, [pageNumber], 0, fileKey);
            if (!rendered.ok)
              return { result: Promise.resolve<JsonObject>({ error: rendered.error, context: { ...(uri ? { uri } : {}), pageNumber } }) };
            return { result: withRetry(() => annotateRenderedPage(rendered.pages[0], request, uri, opts.files, { enumEncoding: 'name' })) };
          },
          pageDone,
        );
        // Stopping: pages read while the engine was closing may carry errors; the batch is redone by the next holder.
        if (stopped) throw new Stopped();
        if (out)
          await writeBatch(row.project_id, out.bucket, batchObjectName(out.prefix, first, last), {
            inputConfig: echoInputConfig(request.inputConfig),
            responses: pageResponses,
          });
        else {
          progress.units[unit] ??= { batches: [] };
          // biome-ignore lint/suspicious/noAssignInExpressions: create the list on first use.
          (progress.units[unit].inline ??= []).push(...pageResponses);
        }
        await checkpoint(unit, batch, pages.length, totalPages);
      }
      if (out) responses.push({ outputConfig: { gcsDestination: { uri: out.uri }, batchSize } });
      else {
        const pagesInline = ((progress.units[unit]?.inline ?? []) as JsonObject[]).sort((a, b) => pageOf(a) - pageOf(b));
        responses.push({
          outputConfig: { batchSize },
          fileResponse: { inputConfig: echoInputConfig(request.inputConfig), responses: pagesInline, totalPages },
        });
      }
    }
    return { response: { responses } };
  }

  async function runImages(row: OperationRow, progress: JobProgress, checkpoint: Checkpoint, pageDone: () => void): Promise<Outcome> {
    const read = readProtoJson<AsyncBatchAnnotateImagesRequest>(AsyncBatchAnnotateImagesRequestSchema, JSON.parse(row.request));
    if (!read.ok) return { error: { code: GRPC_CODES.INVALID_ARGUMENT, message: read.violations[0].description } };
    const { requests, outputConfig } = read.value;
    const batchSize = outputConfig?.batchSize || DEFAULT_BATCH_SIZE;
    const out = outputPrefix(outputConfig);
    const done = new Set(progress.units[0]?.batches ?? []);
    for (let batch = 0; batch * batchSize < requests.length; batch += 1) {
      if (done.has(batch)) continue;
      const first = batch * batchSize + 1;
      const last = Math.min(requests.length, first + batchSize - 1);
      const entries = requests.slice(first - 1, last);
      const responses = await bounded(
        entries,
        async (entry) => ({
          result: withRetry(() =>
            annotateOne(entry, { engine: opts.files.engine, imageSource: opts.imageSource }, { enumEncoding: 'name' }),
          ),
        }),
        pageDone,
      );
      if (stopped) throw new Stopped();
      await writeBatch(row.project_id, out.bucket, batchObjectName(out.prefix, first, last), { responses });
      await checkpoint(0, batch, entries.length, requests.length);
    }
    return { response: { outputConfig: { gcsDestination: { uri: out.uri }, batchSize } } };
  }

  async function run(): Promise<void> {
    while (!stopped) {
      try {
        if (Date.now() - lastPurge > 10 * 60_000) {
          lastPurge = Date.now();
          const purged = await opts.repo.purgeEndedBefore(new Date(Date.now() - opts.retentionMs));
          if (purged > 0) opts.log.info({ purged }, 'deleted operations past their retention');
        }
        const job = await opts.repo.claim(owner, opts.leaseMs);
        if (job) {
          await runJob(job);
          continue;
        }
      } catch (err) {
        if (!stopped) opts.log.warn({ err }, 'the operation runner could not reach the store; retrying');
      }
      await sleep(opts.pollMs);
    }
  }

  return {
    owner,
    start() {
      if (!stopped) return;
      stopped = false;
      loop = run();
    },
    /** A job was queued on this node: look now instead of at the next poll. */
    nudge() {
      wake?.();
    },
    async stop() {
      stopped = true;
      wake?.();
      await loop;
    },
  };
}

export type OperationRunner = ReturnType<typeof createOperationRunner>;
