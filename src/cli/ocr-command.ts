import fs from 'node:fs/promises';
import { GRPC_CODES } from '../errors.ts';
import { MAX_IMAGE_BYTES } from '../ocr/decode/decode-image.ts';
import { createOcrEngine, type OcrEngine } from '../ocr/engine/ocr-engine.ts';
import type { OcrOptions, OcrOutcome } from '../ocr/ocr-types.ts';
import { annotateImageBytes } from '../vision/annotate-images.ts';
import { createDocumentRenderer, type DocumentRenderer } from '../vision/files/document-renderer.ts';
import { PDF_MAX_PAGE_SIDE_POINTS } from '../vision/files/file-pages.ts';
import { languageList, parseLanguageOption } from './cli-languages.ts';
import { CliError, type Command } from './command.ts';
import { collectOcrInputs, describe, type OcrInput } from './ocr-inputs.ts';
import { FORMATTERS, FORMATS, type FileOutcome, type Format } from './ocr-formats.ts';
import { createProgressBar } from './progress-bar.ts';
import { readLimited } from './read-stream.ts';

/**
 * `legible ocr`: the engine on local images, folders or standard input, like `tesseract` and
 * `gcloud ml vision detect-text`. Each image goes through the server's own `images:annotate` path
 * (`annotateImages`), so `--format vision` prints what the API would answer. Output in input order;
 * unreadable files are reported and skipped.
 */
export const ocrCommand: Command = {
  summary: 'read the text in images, folders of images or standard input',
  synopsis: ['[--document] [-l LANGS] [-f text|json|vision|tsv|hocr] [--concurrency N] FILE|DIR|-… (PDFs too)'],
  description: [
    'A PDF is read page by page (rendered as files:annotate renders it): each page is printed after a "--- page N ---" line, and the json, vision, tsv and hocr formats give one entry per page.',
    'Reads the text in each image with the same engine and models as the server, offline: no server, account or API key is needed. FILE is an image (JPEG, PNG, GIF, BMP, WebP, TIFF, ICO, HEIC/HEIF or AVIF, up to 20 MB and 75 megapixels); DIR is searched recursively for files with those extensions, in name order; - reads one image from standard input.',
    'Results are printed in the order the inputs were given, while up to --concurrency images are read at a time. A file that cannot be read (missing, not an image, too large) is reported on standard error and skipped; the others are still read. A file in which no text is found prints a warning on standard error: text in a script other than Latin or Chinese (Arabic, Hebrew, Korean, Japanese, Hindi, Russian, …) is often read only when its language is named with --lang.',
    'Settings of the engine come from the environment as for the server (OCR_THREADS: onnxruntime threads per worker). The store (DATA_DIR, DATABASE_URL) is not used.',
  ],
  options: {
    document: { type: 'boolean', default: false },
    lang: { type: 'string', short: 'l' },
    format: { type: 'string', short: 'f' },
    json: { type: 'boolean', default: false },
    concurrency: { type: 'string' },
  },
  optionDocs: [
    {
      flags: '--document',
      doc: "Dense-text mode (Google's DOCUMENT_TEXT_DETECTION): pages, receipts, forms. The default is TEXT_DETECTION, for sparse text in photos.",
    },
    {
      flags: '-l, --lang LANGS',
      doc: `Languages of the text, separated by , or + (Tesseract's way): BCP-47 tags (ar, zh-Hant, pt-BR) or Tesseract's codes (ara, chi_sim, eng). Without it the engine reads Latin letters and Chinese, and checks a page it cannot read for Arabic, Hebrew, Korean and Hindi. Installed here: ${languageList()}. See docs/languages.md.`,
    },
    {
      flags: '-f, --format FORMAT',
      doc: 'text (default): the text, with a "== FILE ==" header per file when there are several. json: one line per file, {"file", "text", "locale", "confidence", "width", "height", "words": [{"text", "confidence", "box"}]} or {"file", "error", "code"}. vision: one line per file, Google Cloud Vision\'s BatchAnnotateImagesResponse {"responses": [AnnotateImageResponse]}, as the server answers images:annotate (with "context": {"uri": FILE} when there are several files; a file that could not be read has the entry\'s "error"). tsv: Tesseract\'s TSV (level, page_num, block_num, par_num, line_num, word_num, left, top, width, height, conf, text; one page per file). hocr: Tesseract-style hOCR 1.2 XHTML, one ocr_page per file.',
    },
    { flags: '--json', doc: 'The same as --format json (kept for scripts written for earlier versions).' },
    {
      flags: '--concurrency N',
      doc: 'Images read at a time, 1 to 64 (one worker thread and about 0.35 GB each). Default: OCR_WORKERS (2).',
    },
  ],
  exitStatus: [
    '0  every input was read (including images in which no text was found)',
    '1  at least one input could not be read, or a directory held no image',
    '2  bad arguments (unknown option or language, bad --format or --concurrency, no input)',
  ],
  examples: [
    'legible ocr receipt.jpg                        # the text',
    "legible ocr --document --lang ara page.png     # an Arabic page (Tesseract's code)",
    "legible ocr -l ar,en -f vision photo.jpg       # Google's JSON, as images:annotate answers",
    'curl -s https://example.com/a.png | legible ocr -   # from standard input',
    'legible ocr -f tsv scans/ > words.tsv          # every image under scans/, one TSV',
    'legible ocr -f hocr page.tif > page.hocr',
  ],
  async run({ config, values, positionals }) {
    if (positionals.length === 0) throw new CliError("no file, directory or - given\nRun 'legible ocr --help' for usage.", 2);
    if (positionals.filter((p) => p === '-').length > 1) throw new CliError('standard input (-) can be read only once', 2);
    const concurrency = values.concurrency === undefined ? config.ocr.workers : Number(values.concurrency);
    if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 64) {
      throw new CliError(`--concurrency must be an integer from 1 to 64, got ${JSON.stringify(values.concurrency)}`, 2);
    }
    const format = formatOf(values.format as string | undefined, values.json === true);
    const languageHints = parseLanguageOption(values.lang as string | undefined);
    if (positionals.includes('-') && process.stdin.isTTY) {
      throw new CliError(
        '- reads the image from standard input, which is a terminal here; pipe or redirect a file: legible ocr - < page.png',
        2,
      );
    }
    const options: OcrOptions = { mode: values.document ? 'document' : 'text', languageHints };

    const inputs = await collectOcrInputs(positionals);
    if (inputs.length === 0) {
      console.error(`error: no image files in ${positionals.join(', ')}`);
      return 1;
    }
    const formatter = FORMATTERS[format];
    const started = performance.now();
    const engine = createOcrEngine({ workers: Math.min(concurrency, inputs.length), threads: config.ocr.threads, queueMax: concurrency });
    // PDFs are rendered page by page in the same bounded document worker as files:annotate.
    let documents: DocumentRenderer | undefined;
    const renderer = () =>
      (documents ??= createDocumentRenderer({
        limits: { ...config.files, maxPageSidePoints: PDF_MAX_PAGE_SIDE_POINTS },
        workers: 1,
        timeoutMs: config.files.renderTimeoutMs,
        maxHeapMb: config.files.workerHeapMb,
      }));
    const bar = process.stderr.isTTY && inputs.length > 1 ? createProgressBar(process.stderr, inputs.length) : undefined;
    let done = 0;
    let failed = 0;
    let empty = 0;
    process.stdout.write(formatter.begin());
    try {
      await runInOrder(
        inputs,
        concurrency,
        (input) => readOne(engine, input, options, renderer, config.files.maxBytes),
        (outcomes) => {
          bar?.clear();
          const index = done++;
          if (outcomes.some((o) => !o.ok)) failed++;
          for (const o of outcomes) {
            const where = o.page ? `${o.file} page ${o.page}` : o.file;
            if (!o.ok) console.error(`error: ${where}: ${o.message}`);
            else if (o.value.page.blocks.length === 0) {
              empty++;
              console.error(`warning: ${where}: no text found`);
            }
            process.stdout.write(formatter.file(o, index, inputs.length));
          }
          bar?.update(done, failed);
        },
      );
    } finally {
      bar?.clear();
      await engine.close();
      await documents?.close();
    }
    process.stdout.write(formatter.end());
    if (empty > 0) console.error(emptyHint(languageHints));
    if (inputs.length > 1) {
      console.error(`${inputs.length} files, ${failed} failed, ${((performance.now() - started) / 1000).toFixed(1)} s`);
    }
    return failed > 0 ? 1 : 0;
  },
};

function formatOf(raw: string | undefined, json: boolean): Format {
  if (raw === undefined) return json ? 'json' : 'text';
  if (!(FORMATS as readonly string[]).includes(raw))
    throw new CliError(`--format must be one of ${FORMATS.join(', ')}; got ${JSON.stringify(raw.slice(0, 40))}`, 2);
  if (json && raw !== 'json') throw new CliError(`--json and --format ${raw} disagree: give one`, 2);
  return raw as Format;
}

function emptyHint(hints: string[]): string {
  if (hints.length > 0) {
    return `hint: no text was found with --lang ${hints.join(',')}. Check that the image shows text in that language, or try --document for dense pages.`;
  }
  return 'hint: without --lang the engine reads Latin letters and Chinese. If the text is in another script, name its language, e.g. --lang ara (Arabic), heb, kor, jpn or hin; for dense pages add --document. `legible ocr --help` lists the installed languages.';
}

const NOT_READ = (file: string, message: string, grpc: number, code?: string): FileOutcome => ({
  file,
  ok: false,
  message,
  ...(code ? { code } : {}),
  vision: { error: { code: grpc, message } },
});

const PDF_MAGIC = Buffer.from('%PDF-');

/** The input's bytes: an image up to MAX_IMAGE_BYTES, a PDF (by its magic) up to FILE_MAX_BYTES. */
async function readBytes(input: Exclude<OcrInput, { error: string }>, maxPdfBytes: number): Promise<Buffer | FileOutcome> {
  const limit = Math.max(MAX_IMAGE_BYTES, maxPdfBytes);
  let bytes: Buffer;
  if (input.stdin) {
    const read = await readLimited(process.stdin, limit);
    if (read === 'too-large') return NOT_READ('-', `larger than ${limit / 2 ** 20} MB`, GRPC_CODES.INVALID_ARGUMENT, 'IMAGE_TOO_LARGE');
    bytes = read;
  } else {
    const stat = await fs.stat(input.file);
    // A FIFO or device would block or never end: only regular files are read.
    if (!stat.isFile())
      return NOT_READ(input.file, stat.isDirectory() ? 'is a directory' : 'not a regular file', GRPC_CODES.INVALID_ARGUMENT);
    if (stat.size > limit)
      return NOT_READ(input.file, `larger than ${limit / 2 ** 20} MB (${stat.size} bytes)`, GRPC_CODES.INVALID_ARGUMENT, 'IMAGE_TOO_LARGE');
    bytes = await fs.readFile(input.file);
  }
  if (!isPdf(bytes) && bytes.byteLength > MAX_IMAGE_BYTES) {
    return NOT_READ(
      input.file,
      `larger than ${MAX_IMAGE_BYTES / 2 ** 20} MB (${bytes.byteLength} bytes)`,
      GRPC_CODES.INVALID_ARGUMENT,
      'IMAGE_TOO_LARGE',
    );
  }
  return bytes;
}

const isPdf = (bytes: Buffer) => bytes.subarray(0, PDF_MAGIC.length).equals(PDF_MAGIC);

/** One image through the server's own path: the same feature plan, failure statuses and response builder. */
async function readImage(engine: OcrEngine, file: string, bytes: Uint8Array, options: OcrOptions, page?: number): Promise<FileOutcome> {
  let outcome: OcrOutcome | undefined;
  const feature = options.mode === 'document' ? 'DOCUMENT_TEXT_DETECTION' : 'TEXT_DETECTION';
  const vision = await annotateImageBytes(
    bytes,
    { features: [{ type: feature }], imageContext: { languageHints: options.languageHints } },
    { engine: { run: async (image, opts) => (outcome = await engine.run(image, opts)) } },
    { enumEncoding: 'name' },
  );
  const at = { file, ...(page ? { page } : {}) };
  if (outcome?.ok) return { ...at, ok: true, value: outcome.value, vision };
  return { ...at, ok: false, message: outcome?.message ?? 'not read', ...(outcome?.code ? { code: outcome.code } : {}), vision };
}

/** A PDF: every page rendered (one at a time, bounded like files:annotate) and read in order. */
async function readPdf(
  engine: OcrEngine,
  file: string,
  bytes: Uint8Array,
  options: OcrOptions,
  documents: DocumentRenderer,
): Promise<FileOutcome[]> {
  const key = `${file}:${bytes.byteLength}`;
  const counted = await documents.pages('application/pdf', bytes, [], 0, key);
  if (!counted.ok) return [NOT_READ(file, counted.error.message, GRPC_CODES.INVALID_ARGUMENT, 'FILE_UNREADABLE')];
  const pages: FileOutcome[] = [];
  for (let pageNumber = 1; pageNumber <= counted.totalPages; pageNumber++) {
    const rendered = await documents.pages('application/pdf', bytes, [pageNumber], 0, key);
    if (!rendered.ok)
      return [...pages, { ...NOT_READ(file, rendered.error.message, GRPC_CODES.INVALID_ARGUMENT, 'FILE_UNREADABLE'), page: pageNumber }];
    pages.push(await readImage(engine, file, rendered.pages[0].image, options, pageNumber));
  }
  return pages;
}

async function readOne(
  engine: OcrEngine,
  input: OcrInput,
  options: OcrOptions,
  documents: () => DocumentRenderer,
  maxPdfBytes: number,
): Promise<FileOutcome[]> {
  if ('error' in input)
    return [
      NOT_READ(input.file, input.error, input.error === 'no such file or directory' ? GRPC_CODES.NOT_FOUND : GRPC_CODES.INVALID_ARGUMENT),
    ];
  try {
    const bytes = await readBytes(input, maxPdfBytes);
    if (!Buffer.isBuffer(bytes)) return [bytes];
    if (isPdf(bytes)) return await readPdf(engine, input.file, bytes, options, documents());
    return [await readImage(engine, input.file, bytes, options)];
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    return [NOT_READ(input.file, describe(e), e.code === 'ENOENT' ? GRPC_CODES.NOT_FOUND : GRPC_CODES.INTERNAL)];
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
