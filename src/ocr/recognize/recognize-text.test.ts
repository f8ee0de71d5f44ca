import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import sharp from 'sharp';
import { FIXTURE_TEXT, fixture } from '../../../test/fixtures/images/fixtures.ts';
import { decodeImage } from '../decode/decode-image.ts';
import { loadModels, type OcrModels } from '../models/models.ts';
import type { Quad } from '../ocr-types.ts';
import { DEFAULT_BATCHING, planBatches, recognizeLines } from './recognize-text.ts';

let models: OcrModels;
before(async () => {
  models = await loadModels({ threads: 1 });
});
after(() => models.release());

test('batches hold every line once, at most maxBatch, padded by at most maxPadding', () => {
  const widths = Array.from({ length: 200 }, (_, i) => 40 + ((i * 7919) % 1500));
  const batches = planBatches(widths);
  assert.deepEqual(
    batches.flatMap((b) => b.indices).sort((a, b) => a - b),
    widths.map((_, i) => i),
  );
  for (const b of batches) {
    assert.ok(b.indices.length <= DEFAULT_BATCHING.maxBatch);
    const cols = b.widths.reduce((s, w) => s + Math.max(w, DEFAULT_BATCHING.minWidth), 0);
    assert.ok(
      b.tensorWidth * b.indices.length <= cols * (1 + DEFAULT_BATCHING.maxPadding) + 1e-9,
      `${b.tensorWidth} × ${b.indices.length} vs ${cols}`,
    );
  }
  assert.deepEqual(planBatches([]), []);
});

test('wide lines go in smaller batches: lines × width² stays within the bound (a line wider than it goes alone)', () => {
  const bound = DEFAULT_BATCHING.maxLinesTimesWidthSquared!;
  const widths = [
    ...Array.from({ length: 16 }, () => 2000),
    ...Array.from({ length: 3 }, () => 5000),
    ...Array.from({ length: 16 }, () => 600),
  ];
  const batches = planBatches(widths);
  assert.deepEqual(
    batches.flatMap((b) => b.indices).sort((a, b) => a - b),
    widths.map((_, i) => i),
  );
  for (const b of batches)
    assert.ok(b.indices.length === 1 || b.indices.length * b.tensorWidth ** 2 <= bound, `${b.indices.length} × ${b.tensorWidth}`);
  assert.equal(batches.filter((b) => b.tensorWidth === 5000).length, 3);
  assert.equal(batches.find((b) => b.tensorWidth === 600)?.indices.length, DEFAULT_BATCHING.maxBatch);
});

test('a long line (drawn smaller inside the 48 rows) reads like a short one', async () => {
  const line = Buffer.from(fixture('line.png'));
  const { width = 0, height = 0 } = await sharp(line).metadata();
  const twice = await sharp({ create: { width: width * 2, height, channels: 3, background: '#ffffff' } })
    .composite([
      { input: line, left: 0, top: 0 },
      { input: line, left: width, top: 0 },
    ])
    .png()
    .toBuffer();
  const image = await decodeImage(new Uint8Array(twice));
  const quad: Quad = [
    { x: 20, y: 8 },
    { x: 2 * width - 40, y: 8 },
    { x: 2 * width - 40, y: height - 6 },
    { x: 20, y: height - 6 },
  ];
  const [reading] = await recognizeLines(image, [quad], models.recognizer, models.dictionary);
  const letters = (s: string) => s.replace(/\s+/g, '');
  assert.equal(letters(reading.text), letters(FIXTURE_TEXT.line).repeat(2));
  assert.ok(reading.confidence > 0.8, `confidence ${reading.confidence}`);
});
