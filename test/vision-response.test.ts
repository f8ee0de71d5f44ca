import { test, type TestContext } from 'node:test';
import type { OcrResult, OcrSymbol, OcrWord, Quad } from '../src/ocr/ocr-types.ts';
import { annotateImageResponse } from '../src/vision/vision-response.ts';
import { protoRoundTrip } from './helpers/vision-proto.ts';

const quad = (x0: number, y0: number, x1: number, y1: number): Quad => [
  { x: x0, y: y0 },
  { x: x1, y: y0 },
  { x: x1, y: y1 },
  { x: x0, y: y1 },
];

function word(text: string, x0: number, y0: number, last: 'SPACE' | 'LINE_BREAK'): OcrWord {
  const w = (x1: number) => (x1 - x0) / text.length;
  const symbols: OcrSymbol[] = [...text].map((ch, i) => ({
    text: ch,
    box: quad(x0 + i * w(x0 + 20 * text.length), y0, x0 + (i + 1) * w(x0 + 20 * text.length), y0 + 30),
    confidence: 0.98,
    ...(i === text.length - 1 ? { break: last } : {}),
  }));
  return {
    text,
    box: quad(x0, y0, x0 + 20 * text.length, y0 + 30),
    confidence: 0.97,
    symbols,
    languages: [{ languageCode: 'en', confidence: 1 }],
  };
}

/** "Wake up" on a line touching the top edge (y = 0), then "human!". */
const RESULT: OcrResult = {
  text: 'Wake up\nhuman!\n',
  locale: 'en',
  page: {
    width: 600,
    height: 476,
    confidence: 0.95,
    languages: [{ languageCode: 'en', confidence: 0.7270755 }],
    blocks: [
      {
        box: quad(28, 0, 240, 80),
        confidence: 0.96,
        languages: [],
        paragraphs: [
          {
            box: quad(28, 0, 240, 80),
            confidence: 0.96,
            languages: [],
            words: [word('Wake', 28, 0, 'SPACE'), word('up', 120, 0, 'LINE_BREAK'), word('human!', 28, 50, 'LINE_BREAK')],
          },
        ],
      },
    ],
  },
};

test("TEXT_DETECTION: Google's shape, defaults omitted, no confidence", (t: TestContext) => {
  const json = annotateImageResponse(RESULT, { confidence: false, enumEncoding: 'name' }) as any;
  t.assert.deepEqual(Object.keys(json), ['textAnnotations', 'fullTextAnnotation']);
  const [all, ...words] = json.textAnnotations;
  t.assert.deepEqual(Object.keys(all), ['locale', 'description', 'boundingPoly']);
  t.assert.equal(all.description, 'Wake up\nhuman!\n');
  t.assert.deepEqual(all.boundingPoly.vertices, [{ x: 28 }, { x: 160 }, { x: 160, y: 80 }, { x: 28, y: 80 }]);
  t.assert.deepEqual(
    words.map((w: any) => w.description),
    ['Wake', 'up', 'human!'],
  );
  t.assert.deepEqual(Object.keys(words[0]), ['description', 'boundingPoly']);
  t.assert.deepEqual(words[0].boundingPoly.vertices[0], { x: 28 });

  const page = json.fullTextAnnotation.pages[0];
  t.assert.deepEqual(Object.keys(json.fullTextAnnotation), ['pages', 'text']);
  t.assert.deepEqual(Object.keys(page), ['property', 'width', 'height', 'blocks']);
  const block = page.blocks[0];
  t.assert.deepEqual(Object.keys(block), ['boundingBox', 'paragraphs', 'blockType']);
  t.assert.equal(block.blockType, 'TEXT');
  const w0 = block.paragraphs[0].words[0];
  t.assert.deepEqual(Object.keys(w0), ['property', 'boundingBox', 'symbols']);
  t.assert.deepEqual(w0.property, { detectedLanguages: [{ languageCode: 'en', confidence: 1 }] });
  t.assert.deepEqual(Object.keys(w0.symbols[0]), ['boundingBox', 'text']);
  t.assert.deepEqual(w0.symbols[3].property, { detectedBreak: { type: 'SPACE' } });
  t.assert.deepEqual(block.paragraphs[0].words[1].symbols[1].property, { detectedBreak: { type: 'LINE_BREAK' } });
  t.assert.ok(!JSON.stringify(json).includes('confidence":0.9'), 'no confidences for TEXT_DETECTION');
  t.assert.ok(!JSON.stringify(json).includes('isPrefix'));
});

test('DOCUMENT_TEXT_DETECTION (or the flag): confidence at every level; integer enums on request', (t: TestContext) => {
  const json = annotateImageResponse(RESULT, { confidence: true, enumEncoding: 'int' }) as any;
  const page = json.fullTextAnnotation.pages[0];
  t.assert.equal(page.confidence, 0.95);
  t.assert.deepEqual(Object.keys(page.blocks[0]), ['boundingBox', 'paragraphs', 'blockType', 'confidence']);
  t.assert.equal(page.blocks[0].blockType, 1);
  const w = page.blocks[0].paragraphs[0].words[0];
  t.assert.equal(w.confidence, 0.97);
  t.assert.equal(w.symbols[0].confidence, 0.98);
  t.assert.deepEqual(w.symbols[3].property, { detectedBreak: { type: 1 } });
  t.assert.equal(json.textAnnotations[0].confidence, undefined);
});

test('no text → {} (no annotations, no error)', (t: TestContext) => {
  const empty: OcrResult = { text: '', page: { width: 10, height: 10, confidence: 0, blocks: [], languages: [] } };
  t.assert.deepEqual(annotateImageResponse(empty, { confidence: true, enumEncoding: 'name' }), {});
});

test('odd geometry: rounding, negative zero, clamped confidences', (t: TestContext) => {
  const odd: OcrResult = {
    ...RESULT,
    page: {
      ...RESULT.page,
      confidence: 1.7,
      blocks: [
        {
          ...RESULT.page.blocks[0],
          confidence: Number.NaN,
          box: [
            { x: -0.2, y: 0.4 },
            { x: 10.5, y: -0 },
            { x: 10.49, y: 3 },
            { x: 0, y: 3 },
          ],
        },
      ],
    },
  };
  const json = annotateImageResponse(odd, { confidence: true, enumEncoding: 'name' }) as any;
  const block = json.fullTextAnnotation.pages[0].blocks[0];
  t.assert.deepEqual(block.boundingBox.vertices, [{}, { x: 11 }, { x: 10, y: 3 }, { y: 3 }]);
  t.assert.equal(block.confidence, undefined);
  t.assert.equal(json.fullTextAnnotation.pages[0].confidence, 1);
});

test("responses decode against Google's protos without loss (names and integers)", (t: TestContext) => {
  for (const [confidence, enumEncoding] of [
    [false, 'name'],
    [true, 'name'],
    [true, 'int'],
  ] as const) {
    const json = {
      responses: [annotateImageResponse(RESULT, { confidence, enumEncoding }), { error: { code: 3, message: 'Bad image data.' } }, {}],
    };
    const { input, output } = protoRoundTrip('google.cloud.vision.v1.BatchAnnotateImagesResponse', json, enumEncoding);
    t.assert.deepEqual(output, input);
  }
});
