import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Actor } from '../audit/audit-log.ts';
import { newId } from '../credentials/new-id.ts';
import { AppError, type FieldViolation } from '../errors.ts';
import { parseGsUri, type ObjectStore } from '../storage/object-store.ts';
import { askError } from '../vision/annotate-images.ts';
import { FILE_MIME_TYPES } from '../vision/files/file-pages.ts';
import { enumEncodingOf, sendVisionJson } from '../vision/annotate-handler.ts';
import {
  AsyncBatchAnnotateFilesRequestSchema,
  AsyncBatchAnnotateImagesRequestSchema,
  type AsyncBatchAnnotateFilesRequest,
  type AsyncBatchAnnotateImagesRequest,
  type OutputConfig,
} from '../vision/files/file-request-schema.ts';
import { SystemParametersSchema, type SystemParameters } from '../vision/vision-request-schema.ts';
import { visionValidatorCompiler } from '../vision/vision-validator.ts';
import { isDocumentedPath, VISION_PREFIXES, visionMethodPaths } from '../vision/vision-paths.ts';
import { checkParent } from '../vision/vision-parent.ts';
import { operationJson, operationWithProgress } from './operation-json.ts';
import type { OperationRunner } from './operation-runner.ts';
import { storeRequest } from './operation-runner.ts';
import type { OperationRow, OperationsRepository } from './operations-repository.ts';

export interface OperationRoutesOptions {
  repo: OperationsRepository;
  store: ObjectStore;
  runner: OperationRunner;
  /** OPERATIONS_ALLOW_CANCEL. */
  allowCancel: boolean;
}

type Query = { Querystring: SystemParameters };

function invalid(field: string, description: string): AppError {
  return new AppError('INVALID_ARGUMENT', description, { fieldViolations: [{ field, description }] });
}

/** Checks an OutputConfig at request time: a gs:// prefix in one of the project's buckets, batchSize 1–100. */
async function checkOutput(store: ObjectStore, projectId: string, config: OutputConfig | undefined, field: string): Promise<void> {
  const uri = config?.gcsDestination?.uri;
  if (!uri)
    throw invalid(
      `${field}.gcsDestination.uri`,
      `${field}.gcsDestination.uri is required: where the results are written (gs://bucket/prefix).`,
    );
  const parsed = parseGsUri(uri);
  if (!parsed)
    throw invalid(
      `${field}.gcsDestination.uri`,
      `Invalid ${field}.gcsDestination.uri ${JSON.stringify(uri)}: expected gs://bucket/prefix.`,
    );
  if (!(await store.hasBucket(projectId, parsed.bucket)))
    throw new AppError('NOT_FOUND', `Bucket ${parsed.bucket} not found (buckets belong to the API key's project).`);
  const size = config?.batchSize ?? 0;
  if (size < 0 || size > 100) throw invalid(`${field}.batchSize`, `${field}.batchSize must be between 1 and 100 (default 20).`);
}

/** The API key behind the request, as the actor of the audit row. */
function keyActor(request: FastifyRequest): Actor {
  const caller = request.visionCaller!;
  return { accountId: caller.accountId ?? '', actor: caller.keyId ? `api_key:${caller.keyId}` : 'api_key' };
}

function locationOf(request: FastifyRequest): string | undefined {
  const fromPath = (request.params as { location?: string } | undefined)?.location;
  const parent = (request.body as { parent?: string } | undefined)?.parent;
  return fromPath ?? (parent ? /\/locations\/([^/]+)$/.exec(parent)?.[1] : undefined);
}

/**
 * `files:asyncBatchAnnotate`, `images:asyncBatchAnnotate` and `google.longrunning.Operations` (Get,
 * List, Cancel) for Vision, at every prefix and Google name form; inside the key-authenticated
 * Vision plugin. Unlike Google, an API key may start a job (no service account needed).
 */
export function registerOperationRoutes(app: FastifyInstance, opts: OperationRoutesOptions): void {
  const { repo, store } = opts;

  async function start(
    request: FastifyRequest,
    kind: 'files' | 'images',
    body: unknown,
    details: Record<string, unknown>,
  ): Promise<OperationRow> {
    const caller = request.visionCaller!;
    const row = await repo.create(
      keyActor(request),
      {
        operationId: newId('op')
          .replace(/[^a-z0-9]/gi, '')
          .toLowerCase(),
        projectId: caller.projectId,
        accountId: caller.accountId ?? '',
        keyId: caller.keyId,
        location: locationOf(request),
        kind,
        request: storeRequest(body),
      },
      { method: kind === 'files' ? 'files:asyncBatchAnnotate' : 'images:asyncBatchAnnotate', ...details },
    );
    // Pages are counted when the job ends (usage `images`); the request itself is counted now.
    request.visionImages = 0;
    opts.runner.nudge();
    return row;
  }

  for (const url of visionMethodPaths('files:asyncBatchAnnotate')) {
    app.route({
      method: 'POST',
      url,
      schema: {
        tags: ['vision'],
        summary: 'Detect text in PDF/TIFF/GIF files in storage, as a long-running operation',
        description:
          "Google's AsyncBatchAnnotateFiles: `inputConfig.gcsSource.uri` and `outputConfig.gcsDestination.uri` name objects in Legible storage (buckets of the key's project). Returns an Operation at once; poll `GET /v1/{name}`. Output: `{prefix}output-{a}-to-{b}.json`, `batchSize` pages each.",
        security: [{ apiKey: [] }],
        body: AsyncBatchAnnotateFilesRequestSchema,
        querystring: SystemParametersSchema,
        ...(isDocumentedPath(url) ? {} : { hide: true }),
      },
      validatorCompiler: visionValidatorCompiler,
      handler: async (request: FastifyRequest<{ Body: AsyncBatchAnnotateFilesRequest } & Query>, reply) => {
        const projectId = request.visionCaller!.projectId;
        checkParent(request, projectId);
        for (const [i, file] of request.body.requests.entries()) {
          const at = `requests[${i}]`;
          const refused = askError(file);
          if (refused) throw invalid(`${at}.features`, refused.message);
          const mime = file.inputConfig?.mimeType ?? '';
          if (!(FILE_MIME_TYPES as readonly string[]).includes(mime))
            throw invalid(
              `${at}.inputConfig.mimeType`,
              `Unsupported ${at}.inputConfig.mimeType ${JSON.stringify(mime)}: use one of ${FILE_MIME_TYPES.join(', ')}.`,
            );
          if (file.inputConfig?.content)
            throw invalid(
              `${at}.inputConfig.content`,
              'inputConfig.content is not supported by asyncBatchAnnotate (as with Google): upload the file and pass inputConfig.gcsSource.uri.',
            );
          const source = parseGsUri(file.inputConfig?.gcsSource?.uri ?? '');
          if (!source?.name)
            throw invalid(`${at}.inputConfig.gcsSource.uri`, `${at}.inputConfig.gcsSource.uri must name an object: gs://bucket/object.`);
          if (!(await store.head(projectId, source.bucket, source.name)))
            throw new AppError('NOT_FOUND', `Error opening file: ${file.inputConfig!.gcsSource!.uri} not found.`);
          // Without a destination the results come back inside the operation (Legible extension).
          if (file.outputConfig?.gcsDestination?.uri) await checkOutput(store, projectId, file.outputConfig, `${at}.outputConfig`);
        }
        const row = await start(request, 'files', request.body, { files: request.body.requests.length });
        return sendVisionJson(request, reply, operationJson(row, enumEncodingOf(request.query)));
      },
    });
  }

  for (const url of visionMethodPaths('images:asyncBatchAnnotate')) {
    app.route({
      method: 'POST',
      url,
      schema: {
        tags: ['vision'],
        summary: 'Detect text in up to 2000 images, as a long-running operation',
        description:
          "Google's AsyncBatchAnnotateImages: results are written to `outputConfig.gcsDestination.uri` as `output-{a}-to-{b}.json` (BatchAnnotateImagesResponse, `batchSize` images each).",
        security: [{ apiKey: [] }],
        body: AsyncBatchAnnotateImagesRequestSchema,
        querystring: SystemParametersSchema,
        ...(isDocumentedPath(url) ? {} : { hide: true }),
      },
      validatorCompiler: visionValidatorCompiler,
      handler: async (request: FastifyRequest<{ Body: AsyncBatchAnnotateImagesRequest } & Query>, reply) => {
        const projectId = request.visionCaller!.projectId;
        checkParent(request, projectId);
        const violations: FieldViolation[] = [];
        for (const [i, entry] of request.body.requests.entries()) {
          const refused = entry.image ? askError(entry) : { message: 'Arguments must specify image and features.' };
          if (refused) violations.push({ field: `requests[${i}]`, description: refused.message });
        }
        if (violations.length > 0)
          throw new AppError('INVALID_ARGUMENT', violations[0].description, { fieldViolations: violations.slice(0, 20) });
        await checkOutput(store, projectId, request.body.outputConfig, 'outputConfig');
        const row = await start(request, 'images', request.body, { images: request.body.requests.length });
        return sendVisionJson(request, reply, operationJson(row, enumEncodingOf(request.query)));
      },
    });
  }

  const operationParents = ['', '/projects/:project', '/projects/:project/locations/:location', '/locations/:location'];

  for (const prefix of VISION_PREFIXES) {
    for (const parent of operationParents) {
      const documented = prefix === '/api/vision/v1' && parent === '/projects/:project';
      // GET and POST (`:cancel`) share the path and its options; only one path form is in the OpenAPI document.
      const routeOptions = (summary: string) => ({
        schema: {
          tags: ['vision'],
          summary,
          security: [{ apiKey: [] }],
          querystring: SystemParametersSchema,
          ...(documented ? {} : { hide: true }),
        },
        validatorCompiler: visionValidatorCompiler,
      });
      app.get(
        `${prefix}${parent}/operations/:id`,
        routeOptions('Get a long-running operation (google.longrunning.Operations.GetOperation)'),
        async (request: FastifyRequest<{ Params: { id: string } } & Query>, reply) => {
          const projectId = request.visionCaller!.projectId;
          checkParent(request, projectId);
          const row = await repo.get(projectId, request.params.id);
          if (!row) throw new AppError('NOT_FOUND', `Operation ${request.params.id} not found.`);
          return sendVisionJson(request, reply, operationWithProgress(row, enumEncodingOf(request.query)));
        },
      );

      app.post(
        `${prefix}${parent}/operations/:id`,
        routeOptions('Cancel a long-running operation (`…/operations/{id}:cancel`)'),
        async (request: FastifyRequest<{ Params: { id: string } } & Query>, reply) => {
          const projectId = request.visionCaller!.projectId;
          checkParent(request, projectId);
          const match = /^([a-z0-9]+):cancel$/.exec(request.params.id);
          if (!match) throw new AppError('NOT_FOUND', `No route POST ${request.url.split('?')[0]}.`);
          if (!opts.allowCancel)
            throw new AppError(
              'FAILED_PRECONDITION',
              'Cancelling operations is turned off on this server (OPERATIONS_ALLOW_CANCEL=false).',
            );
          const row = await repo.get(projectId, match[1]);
          if (!row) throw new AppError('NOT_FOUND', `Operation ${match[1]} not found.`);
          if (row.state === 'CREATED' || row.state === 'RUNNING') {
            await repo.requestCancel(keyActor(request), projectId, row.operation_id);
          }
          return sendVisionJson(request, reply, {});
        },
      );
    }
    for (const parent of operationParents) {
      app.get(
        `${prefix}${parent}/operations`,
        {
          schema: {
            tags: ['vision'],
            summary: "List the project's operations, newest first",
            security: [{ apiKey: [] }],
            hide: !(prefix === '/api/vision/v1' && parent === '/projects/:project'),
          },
        },
        async (request: FastifyRequest<{ Querystring: { pageSize?: string; pageToken?: string } }>) => {
          const projectId = request.visionCaller!.projectId;
          checkParent(request, projectId);
          const pageSize = Math.min(Math.max(Number(request.query.pageSize ?? 50) || 50, 1), 200);
          const rows = await repo.list(projectId, pageSize + 1, request.query.pageToken || undefined);
          const page = rows.slice(0, pageSize);
          return {
            operations: page.map((r) => operationWithProgress(r)),
            ...(rows.length > pageSize ? { nextPageToken: page[page.length - 1].operation_id } : {}),
          };
        },
      );
    }
  }
}
