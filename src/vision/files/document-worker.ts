import sharp from 'sharp';
import { extractFrames } from './frame-pages.ts';
import { fileFailure, type FileLimits, type FileMimeType, type PagesOutcome } from './file-pages.ts';
import { renderPdfPages } from './pdf-pages.ts';

/** What the renderer sends a document worker: one file and the pages wanted from it. */
export interface DocumentTask {
  mimeType: FileMimeType;
  bytes: Uint8Array;
  /** As in AnnotateFileRequest.pages (1-based, negative from the end); empty = the first `defaultCount`. */
  pages?: number[];
  defaultCount: number;
  limits: FileLimits;
  /** Set by a job reading one file page by page: the worker keeps that PDF open between tasks. */
  fileKey?: string;
}

sharp.cache(false);

/** The piscina entry: never throws; a failure is a per-file error value. */
export default async function documentWorker(task: DocumentTask): Promise<PagesOutcome> {
  try {
    switch (task.mimeType) {
      case 'application/pdf':
        return await renderPdfPages(task.bytes, task.pages, task.defaultCount, task.limits, task.fileKey);
      case 'image/tiff':
        return await extractFrames(task.bytes, 'TIFF', task.pages, task.defaultCount, task.limits);
      case 'image/gif':
        return await extractFrames(task.bytes, 'GIF', task.pages, task.defaultCount, task.limits);
    }
  } catch (err) {
    return fileFailure('INTERNAL', `The file could not be read: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`);
  }
}
