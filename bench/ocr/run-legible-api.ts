import fs from 'node:fs';
import { createStore, PEPPER, projectKey } from '../load/bench-store.ts';
import { SERVER_ENTRY, spawnServer } from '../load/spawn-server.ts';
import type { EngineImageResult, EngineRun } from './engine-run.ts';
import { mapLimit } from './map-limit.ts';
import { SERVER_MALLOC_ENV } from '../server-malloc-env.ts';
import type { OcrDevRecord } from './ocr-dev-manifest.ts';
import { peakRss } from './peak-rss.ts';
import { residentBytes } from '../soak/resident-memory.ts';
import { hintsOf, modeOf } from './run-legible.ts';

interface VisionVertex {
  x?: number;
  y?: number;
}
interface VisionResponse {
  textAnnotations?: Array<{ description: string; boundingPoly?: { vertices: VisionVertex[] } }>;
  fullTextAnnotation?: { text: string };
  error?: { code: number; message: string };
}

function wordsOf(annotations: NonNullable<VisionResponse['textAnnotations']>): EngineImageResult['words'] {
  return annotations.slice(1).map((a) => ({
    text: a.description,
    polygon: (a.boundingPoly?.vertices ?? []).map((v) => [v.x ?? 0, v.y ?? 0] as const),
  }));
}

/**
 * Legible as a client sees it: `npm start`'s entry point and glibc settings with the default OCR configuration (2
 * workers, models warmed at start-up) on a fresh store (`bench-store.ts`: SQLite, or PostgreSQL +
 * Redis when `DATABASE_URL` says so), an account, a project with ocr enabled and an API key, then
 * every image posted to `/v1/images:annotate` as base64 JSON, `concurrency` at a time. The wall
 * time starts once the server says its models are loaded.
 */
export async function runLegibleApi(records: ReadonlyArray<OcrDevRecord & { file: string }>, concurrency: number): Promise<EngineRun> {
  const store = await createStore();
  try {
    const t0 = performance.now();
    const server = await spawnServer(
      SERVER_ENTRY,
      { ...store.env, SECRET_PEPPER: PEPPER, LOG_LEVEL: 'info', ...SERVER_MALLOC_ENV },
      'OCR models loaded',
    );
    const startupMs = performance.now() - t0;
    try {
      const keyString = await projectKey(server.url, store.token, store.accountId, false);
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
          return {
            id: r.id,
            text: '',
            words: [],
            latencyMs,
            error: `${res.status}: ${out?.error?.message ?? body.error?.message ?? 'no response'}`,
          };
        }
        return { id: r.id, text: out.fullTextAnnotation?.text ?? '', words: wordsOf(out.textAnnotations ?? []), latencyMs };
      });
      const wallMs = performance.now() - start;
      process.stderr.write('\n');
      return {
        engine: 'Legible',
        results,
        wallMs,
        peakRssBytes: peakRss(server.child.pid!),
        finalRssBytes: residentBytes(server.child.pid!),
        startupMs,
      };
    } finally {
      await server.stop();
    }
  } finally {
    await store.drop();
  }
}
