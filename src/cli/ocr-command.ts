import fs from 'node:fs/promises';
import { MAX_IMAGE_BYTES } from '../ocr/decode-image.ts';
import { findLanguage } from '../ocr/languages.ts';
import { createOcrEngine, type OcrEngine } from '../ocr/ocr-engine.ts';
import type { OcrOptions, OcrOutcome } from '../ocr/ocr-types.ts';
import { CliError, type Command } from './command.ts';
import { collectOcrInputs, describe, type OcrInput } from './ocr-inputs.ts';
import { createProgressBar } from './progress-bar.ts';
import { createDocumentRenderer, type DocumentRenderer } from '../vision/files/document-renderer.ts';
import { PDF_MAX_PAGE_SIDE_POINTS } from '../vision/files/file-pages.ts';

type OcrValue = Extract<OcrOutcome, { ok: true }>['value'];
type FileOutcome = { file: string } & (
  | { ok: true; value: OcrValue; pages?: Array<{ pageNumber: number; value: OcrValue }> }
  | { ok: false; code?: string; message: string });

const USAGE = 'usage: legible ocr <file|dir>… [--document] [--lang ar,en] [--json] [--concurrency N]   (PDFs: text per page)';

/**
 * `legible ocr`: the engine on local images or folders, like `gcloud ml vision detect-text`.
 * Prints each file's text (with a `== file ==` header when there are several) or one JSON line
 * per file; unreadable files are reported and skipped. Exit 0 when all were read, 1 when any
 * failed, 2 for bad arguments.
 */
export const ocrCommand: Command = {
  summary: 'read the text in images or folders of images (--document, --lang, --json, --concurrency N)',
  options: {
    document: { type: 'boolean', default: false },
    lang: { type: 'string' },
    json: { type: 'boolean', default: false },
    concurrency: { type: 'string' },
  },
  async run({ config, values, positionals }) {
    if (positionals.length === 0) throw new CliError(`no file or directory given\n${USAGE}`, 2);
    const concurrency = values.concurrency === undefined ? config.ocr.workers : Number(values.concurrency);
    if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 64) {
      throw new CliError(`--concurrency must be an integer from 1 to 64, got ${JSON.stringify(values.concurrency)}`, 2);
    }
    const languageHints = parseLanguages(values.lang as string | undefined);
    const options: OcrOptions = { mode: values.document ? 'document' : 'text', languageHints };
    const json = values.json === true;

    const inputs = await collectOcrInputs(positionals);
    if (inputs.length === 0) {
      console.error(`error: no image files in ${positionals.join(', ')}`);
      return 1;
    }
    const started = performance.now();
    const engine = createOcrEngine({ workers: Math.min(concurrency, inputs.length), threads: config.ocr.threads, queueMax: concurrency });
    // PDFs are rendered page by page in the same bounded document worker as files:annotate.
    let documents: DocumentRenderer | undefined;
    const renderer = () => (documents ??= createDocumentRenderer({
      limits: { ...config.files, maxPageSidePoints: PDF_MAX_PAGE_SIDE_POINTS },
      workers: 1,
      timeoutMs: config.files.renderTimeoutMs,
      maxHeapMb: config.files.workerHeapMb,
    }));
    const bar = process.stderr.isTTY && inputs.length > 1 ? createProgressBar(process.stderr, inputs.length) : undefined;
    let done = 0;
    let failed = 0;
    const print = (o: FileOutcome) => {
      bar?.clear();
      if (!o.ok) failed++;
      if (json && o.ok && o.pages) for (const p of o.pages) console.log(JSON.stringify({ ...jsonOf(o.file, p.value), page: p.pageNumber }));
      else if (json) console.log(JSON.stringify(o.ok ? jsonOf(o.file, o.value) : { file: o.file, error: o.message, ...(o.code ? { code: o.code } : {}) }));
      else if (!o.ok) console.error(`error: ${o.file}: ${o.message}`);
      else process.stdout.write(inputs.length > 1 ? `== ${o.file} ==\n${o.value.text}` : o.value.text);
      bar?.update(done, failed);
    };
    try {
      await runInOrder(inputs, concurrency, (input) => readOne(engine, input, options, renderer, config.files.maxBytes), (o) => {
        done++;
        print(o);
      });
    } finally {
      bar?.clear();
      await engine.close();
      await documents?.close();
    }
    if (inputs.length > 1) {
      console.error(`${inputs.length} files, ${failed} failed, ${((performance.now() - started) / 1000).toFixed(1)} s`);
    }
    return failed > 0 ? 1 : 0;
  },
};

function parseLanguages(raw: string | undefined): string[] {
  if (raw === undefined) return [];
  const hints = raw.split(',').map((h) => h.trim()).filter(Boolean);
  if (hints.length === 0) throw new CliError('--lang needs at least one language code, e.g. --lang ar,en', 2);
  for (const h of hints) {
    if (!/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(h) || !findLanguage(h)) {
      throw new CliError(`--lang: unknown or uninstalled language ${JSON.stringify(h)} (see docs/languages.md)`, 2);
    }
  }
  return hints;
}

const PDF_MAGIC = Buffer.from('%PDF-');

/** A PDF: every page rendered and read in order; the text comes back with a `--- page N ---` line before each page. */
async function readPdf(engine: OcrEngine, file: string, bytes: Uint8Array, options: OcrOptions, documents: DocumentRenderer): Promise<FileOutcome> {
  const key = `${file}:${bytes.byteLength}`;
  const counted = await documents.pages('application/pdf', bytes, [], 0, key);
  if (!counted.ok) return { file, ok: false, code: 'FILE_UNREADABLE', message: counted.error.message };
  const pages: Array<{ pageNumber: number; value: OcrValue }> = [];
  for (let pageNumber = 1; pageNumber <= counted.totalPages; pageNumber++) {
    const rendered = await documents.pages('application/pdf', bytes, [pageNumber], 0, key);
    if (!rendered.ok) return { file, ok: false, code: 'FILE_UNREADABLE', message: `page ${pageNumber}: ${rendered.error.message}` };
    const outcome = await engine.run(rendered.pages[0].image, options);
    if (!outcome.ok) return { file, ok: false, code: outcome.code, message: `page ${pageNumber}: ${outcome.message}` };
    pages.push({ pageNumber, value: outcome.value });
  }
  const text = pages.map((p) => `--- page ${p.pageNumber} ---\n${p.value.text}`).join('');
  const first = pages[0]?.value ?? { text: '', page: { width: 0, height: 0, confidence: 0, blocks: [], languages: [] } };
  return { file, ok: true, value: { ...first, text }, pages };
}

async function readOne(engine: OcrEngine, input: OcrInput, options: OcrOptions, documents: () => DocumentRenderer, maxPdfBytes: number): Promise<FileOutcome> {
  if ('error' in input) return { file: input.file, ok: false, message: input.error };
  try {
    const stat = await fs.stat(input.file);
    // A FIFO or device would block or never end: only regular files are read.
    if (!stat.isFile()) return { file: input.file, ok: false, message: stat.isDirectory() ? 'is a directory' : 'not a regular file' };
    const isPdf = await fs.open(input.file, 'r').then(async (h) => {
      const head = Buffer.alloc(5);
      await h.read(head, 0, 5, 0).finally(() => h.close());
      return head.equals(PDF_MAGIC);
    });
    if (isPdf && stat.size > maxPdfBytes) {
      return { file: input.file, ok: false, code: 'FILE_TOO_LARGE', message: `larger than ${Math.round(maxPdfBytes / 2 ** 20)} MB (FILE_MAX_BYTES; ${stat.size} bytes)` };
    }
    if (isPdf) return await readPdf(engine, input.file, await fs.readFile(input.file), options, documents());
    if (stat.size > MAX_IMAGE_BYTES) {
      return { file: input.file, ok: false, code: 'IMAGE_TOO_LARGE', message: `larger than ${MAX_IMAGE_BYTES / 2 ** 20} MB (${stat.size} bytes)` };
    }
    const outcome = await engine.run(await fs.readFile(input.file), options);
    return outcome.ok ? { file: input.file, ok: true, value: outcome.value } : { file: input.file, ok: false, code: outcome.code, message: outcome.message };
  } catch (err) {
    return { file: input.file, ok: false, message: describe(err as NodeJS.ErrnoException) };
  }
}

/** Runs up to `limit` at a time and hands results to `emit` in input order, as soon as each can go. */
async function runInOrder<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>, emit: (r: R) => void): Promise<void> {
  const results = new Map<number, R>();
  let next = 0;
  let emitted = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      results.set(i, await fn(items[i]));
      while (results.has(emitted)) {
        emit(results.get(emitted)!);
        results.delete(emitted++);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}

function jsonOf(file: string, value: Extract<OcrOutcome, { ok: true }>['value']) {
  return {
    file,
    text: value.text,
    ...(value.locale ? { locale: value.locale } : {}),
    confidence: round(value.page.confidence),
    width: value.page.width,
    height: value.page.height,
    words: value.page.blocks.flatMap((b) =>
      b.paragraphs.flatMap((p) => p.words.map((w) => ({ text: w.text, confidence: round(w.confidence), box: w.box.map((pt) => [pt.x, pt.y]) }))),
    ),
  };
}

function round(v: number): number {
  return Math.round(v * 1000) / 1000;
}
