import { BroadcastChannel, threadId } from 'node:worker_threads';
import type { Page } from 'tesseract.js';
import type { TesseractWorkers } from './tesseract-workers.ts';

/** What the Tesseract recognizer asks for: `TesseractWorkers` in the same thread, or the node's shared set through `tesseractClient`. */
export interface TesseractReader {
  /** `tiled`: binarised by Otsu per tile instead of over the whole line (`TesseractWorkers.recognizeLine`). */
  recognizeLine(traineddata: readonly string[], image: Uint8Array, tiled?: boolean): Promise<Page>;
  /** `column`: the image is one column of text (Tesseract's `SINGLE_COLUMN` layout), else its own layout analysis (`AUTO`). */
  recognizePage(traineddata: readonly string[], image: Uint8Array, column?: boolean): Promise<Page>;
}

type Request = { id: string; page: boolean; column?: boolean; tiled?: boolean; traineddata: string[]; image: Uint8Array };
type Reply = { id: string; page?: Page; error?: string };

const repliesOf = (name: string) => `${name}/replies`;
/** Requests sent from this thread: with its id, a request's id is unique in the process, whatever client sent it. */
let asked = 0;

/**
 * Serves `workers` to every OCR worker thread of the process on the broadcast channel `name`: one
 * set of Tesseract workers per node instead of one per OCR worker. A loaded language set holds
 * 35–70 MB (`vie` the most), and OCR workers with sets of their own each held every set they had
 * used (docs/decisions.md, "One set of Tesseract workers per node").
 *
 * @example const service = serveTesseract(name, new TesseractWorkers({ maxLoaded: 3 })); … service.close();
 */
export function serveTesseract(name: string, workers: TesseractWorkers): { close(): void } {
  const requests = new BroadcastChannel(name);
  const replies = new BroadcastChannel(repliesOf(name));
  let closed = false;
  // A read still running when the engine closes ends after the channel: its reply has nobody to go to.
  const reply = (message: Reply) => {
    if (!closed) replies.postMessage(message);
  };
  requests.onmessage = (event) => {
    const { id, page, column, tiled, traineddata, image } = event.data as Request;
    const read = page ? workers.recognizePage(traineddata, image, column) : workers.recognizeLine(traineddata, image, tiled);
    read.then(
      (result) => reply({ id, page: result }),
      (err: unknown) => reply({ id, error: err instanceof Error ? err.message : String(err) }),
    );
  };
  // The engine closes the service; an idle one must not keep the process alive.
  requests.unref();
  replies.unref();
  return {
    close() {
      closed = true;
      requests.close();
      replies.close();
    },
  };
}

/**
 * The `TesseractReader` of an OCR worker thread: its calls go to the service on `name`
 * (`serveTesseract`, in the engine's thread). Replies are broadcast to every worker; each keeps its own.
 */
export function tesseractClient(name: string): TesseractReader {
  const requests = new BroadcastChannel(name);
  const replies = new BroadcastChannel(repliesOf(name));
  requests.unref();
  replies.unref();
  const pending = new Map<string, { resolve(page: Page): void; reject(err: Error): void }>();
  replies.onmessage = (event) => {
    const reply = event.data as Reply;
    const waiting = pending.get(reply.id);
    if (!waiting) return;
    pending.delete(reply.id);
    if (reply.error !== undefined) waiting.reject(new Error(reply.error));
    else waiting.resolve(reply.page!);
  };
  const ask = (page: boolean, traineddata: readonly string[], image: Uint8Array, column?: boolean, tiled?: boolean) =>
    new Promise<Page>((resolve, reject) => {
      const id = `${threadId}:${++asked}`;
      pending.set(id, { resolve, reject });
      requests.postMessage({ id, page, column, tiled, traineddata: [...traineddata], image } satisfies Request);
    });
  return {
    recognizeLine: (traineddata, image, tiled) => ask(false, traineddata, image, undefined, tiled),
    recognizePage: (traineddata, image, column) => ask(true, traineddata, image, column),
  };
}
