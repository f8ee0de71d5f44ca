import type { OcrFailureCode } from '../ocr-types.ts';

/**
 * A typed reason an image could not be read, thrown by the pipeline's stages inside a worker and
 * turned into an `{ ok: false, code }` outcome at the worker boundary (errors with custom fields
 * do not survive `postMessage`), then into an `AppError` or a per-image error by the API layer.
 */
export class OcrFailure extends Error {
  readonly code: OcrFailureCode;

  constructor(code: OcrFailureCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'OcrFailure';
    this.code = code;
  }
}
