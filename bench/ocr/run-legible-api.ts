import fs from 'node:fs';
import path from 'node:path';
import { createAccountsRepository } from '../../src/accounts/accounts-repository.ts';
import { createDatabase } from '../../src/db/database.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { spawnServer } from '../load/spawn-server.ts';
import type { EngineImageResult, EngineRun } from './engine-run.ts';
import { mapLimit } from './map-limit.ts';
import type { OcrDevRecord } from './ocr-dev-manifest.ts';
import { hintsOf, modeOf } from './run-legible.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

interface VisionVertex {
  x?: number;
  y?: number;
}
interface VisionResponse {
  textAnnotations?: Array<{ description: string; boundingPoly?: { vertices: VisionVertex[] } }>;
  fullTextAnnotation?: { text: string };
  error?: { code: number; message: string };
}

async function call(base: string, auth: string, method: string, url: string, body?: unknown): Promise<any> {
  const res = await fetch(base + url, {
    method,
    headers: { authorization: `Bearer ${auth}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await res.json();
  if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/** The server process's peak resident memory (VmHWM), which includes its OCR worker threads. */
function peakRss(pid: number): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) * 1024 : 0;
}

function wordsOf(annotations: NonNullable<VisionResponse['textAnnotations']>): EngineImageResult['words'] {
  return annotations.slice(1).map((a) => ({
    text: a.description,
    polygon: (a.boundingPoly?.vertices ?? []).map((v) => [v.x ?? 0, v.y ?? 0] as const),
  }));
}

/**
 * Legible as a client sees it: `npm start`'s entry point on a fresh SQLite store with the default
 * configuration (2 workers, models warmed at start-up), an account, a project with ocr enabled and an
 * API key, then every image posted to `/v1/images:annotate` as base64 JSON, as many at a time as the
 * server has workers. The wall time starts once the server says its models are loaded.
 */
export async function runLegibleApi(records: ReadonlyArray<OcrDevRecord & { file: string }>, concurrency: number): Promise<EngineRun> {
  const dir = fs.mkdtempSync(path.join(ROOT, '.tmp-bench-'));
  const store = createDatabase(`sqlite://${path.join(dir, 'legible.db')}`);
  await migrateToLatest(store.db);
  const { secret: token } = await createAccountsRepository(store.db).createAccount('bench');
  await store.destroy();
  const t0 = performance.now();
  const server = await spawnServer('src/main.ts', { DATA_DIR: dir, LOG_LEVEL: 'info' }, 'OCR models loaded');
  const startupMs = performance.now() - t0;
  try {
    const { projectId } = await call(server.url, token, 'POST', '/api/accounts/bench/projects', {});
    await call(server.url, token, 'POST', `/api/projects/${projectId}/apis`, { api: 'ocr' });
    await call(server.url, token, 'PATCH', `/api/projects/${projectId}/apis/ocr`, { quota: { requestsPerMinute: 1_000_000 } });
    const { keyString } = await call(server.url, token, 'POST', `/api/projects/${projectId}/api-keys`, { displayName: 'bench' });
    const start = performance.now();
    const results = await mapLimit(records, concurrency, async (r): Promise<EngineImageResult> => {
      const content = (await fs.promises.readFile(r.file)).toString('base64');
      const type = modeOf(r) === 'document' ? 'DOCUMENT_TEXT_DETECTION' : 'TEXT_DETECTION';
      const request = { image: { content }, features: [{ type }], imageContext: { languageHints: hintsOf(r) } };
      const t = performance.now();
      const res = await fetch(`${server.url}/v1/images:annotate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-goog-api-key': keyString },
        body: JSON.stringify({ requests: [request] }),
      });
      const body = (await res.json()) as { responses?: VisionResponse[]; error?: { message: string } };
      const latencyMs = performance.now() - t;
      process.stderr.write('.');
      const out = body.responses?.[0];
      if (!out || out.error || res.status !== 200) {
        return { id: r.id, text: '', words: [], latencyMs, error: `${res.status}: ${out?.error?.message ?? body.error?.message ?? 'no response'}` };
      }
      return { id: r.id, text: out.fullTextAnnotation?.text ?? '', words: wordsOf(out.textAnnotations ?? []), latencyMs };
    });
    const wallMs = performance.now() - start;
    process.stderr.write('\n');
    return { engine: 'Legible', results, wallMs, peakRssBytes: peakRss(server.child.pid!), startupMs };
  } finally {
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
