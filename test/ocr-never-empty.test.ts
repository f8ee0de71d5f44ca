import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import sharp from 'sharp';
import { decodeImage } from '../src/ocr/decode/decode-image.ts';
import { detectText } from '../src/ocr/detect/detect-text.ts';
import { loadEnglishLexicon } from '../src/ocr/words/english-lexicon.ts';
import { buildLayout } from '../src/ocr/layout/build-layout.ts';
import { loadModels, type OcrModels } from '../src/ocr/models/models.ts';
import { isLegible, runOcr, type OcrPipelineDeps } from '../src/ocr/ocr-pipeline.ts';
import { createPaddleRecognizer } from '../src/ocr/recognize/recognize-text.ts';

/**
 * "Never empty where text is legible": clean print, black on white, at any size, aspect ratio and
 * margin a user may crop it to, comes back as text. A 1220×43 line once came back empty (the
 * direction classifier saw the whole line squeezed into 4 heights and called it upside down).
 */
const WORDS = [
  'account',
  'balance',
  'morning',
  'report',
  'north',
  'station',
  'number',
  'total',
  'paper',
  'market',
  'river',
  'public',
  'order',
  'window',
  'summer',
  'garden',
  'letter',
  'history',
  'service',
  'village',
  'between',
  'company',
  'water',
  'table',
];
const FONTS = ['Liberation Serif', 'Liberation Sans', 'Liberation Mono'];

let models: OcrModels;
let deps: OcrPipelineDeps;
before(async () => {
  models = await loadModels({ threads: 1 });
  deps = {
    models,
    recognizer: createPaddleRecognizer(models),
    buildLayout,
    lexicon: await loadEnglishLexicon(),
  };
});
after(() => models.release());

interface Layout {
  lines: string[][];
  font: string;
  size: number;
  /** Text width in font sizes per character: stretches or squeezes the glyphs (aspect ratio). */
  stretch: number;
  upper: boolean;
  margin: { left: number; top: number; right: number; bottom: number };
}

async function render({ lines, font, size, stretch, upper, margin }: Layout): Promise<{ png: Buffer; width: number; height: number }> {
  const texts = lines.map((l) => l.join(' ')).map((t) => (upper ? t.toUpperCase() : t));
  const textWidth = Math.round(Math.max(...texts.map((t) => t.length)) * size * stretch);
  const lineHeight = Math.round(size * 1.25);
  const width = textWidth + margin.left + margin.right;
  const height = lineHeight * lines.length + margin.top + margin.bottom;
  const rows = texts.map((t, i) => {
    const y = margin.top + i * lineHeight + Math.round(size * 0.95);
    return `<text x="${margin.left}" y="${y}" textLength="${Math.round(t.length * size * stretch)}" lengthAdjust="spacingAndGlyphs" font-family="${font}" font-size="${size}" fill="black">${t}</text>`;
  });
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="white"/>${rows.join('')}</svg>`;
  return { png: await sharp(Buffer.from(svg)).png().toBuffer(), width, height };
}

const layout = (maxLines: number): fc.Arbitrary<Layout> =>
  fc.record({
    lines: fc.array(fc.array(fc.constantFrom(...WORDS), { minLength: 2, maxLength: 9 }), { minLength: 1, maxLength: maxLines }),
    font: fc.constantFrom(...FONTS),
    size: fc.integer({ min: 14, max: 48 }),
    stretch: fc.double({ min: 0.5, max: 0.75, noNaN: true }),
    upper: fc.boolean(),
    margin: fc.record({
      left: fc.integer({ min: 0, max: 40 }),
      top: fc.integer({ min: 0, max: 12 }),
      right: fc.integer({ min: 0, max: 40 }),
      bottom: fc.integer({ min: 0, max: 12 }),
    }),
  });

/** Words of the rendering found in what came back. */
function found(lines: string[][], text: string): number {
  const read = new Set(text.toLowerCase().split(/[^a-z]+/u));
  const words = lines.flat();
  return words.filter((w) => read.has(w)).length / words.length;
}

for (const [name, maxLines, runs] of [
  ['single lines', 1, 14],
  ['short paragraphs', 4, 8],
] as const) {
  test(`${name} of clean print at any size, aspect ratio, margin and font come back as text`, async () => {
    await fc.assert(
      fc.asyncProperty(layout(maxLines), async (l) => {
        const { png, width, height } = await render(l);
        for (const mode of ['document', 'text'] as const) {
          const { result } = await runOcr(png, deps, { mode, languageHints: [] });
          const share = found(l.lines, result.text);
          assert.ok(
            share >= 0.6,
            `${width}×${height} ${l.font} ${l.size}px, ${mode}: ${Math.round(share * 100)}% of the words in ${JSON.stringify(result.text)}`,
          );
        }
      }),
      { numRuns: runs, seed: 13 },
    );
  });
}

test('the 1220×43 line that once came back empty reads in full', async () => {
  const words = ['purchase', 'order', 'number', '4471', 'shipped', 'to', 'warehouse', 'district', 'office', 'north'];
  const { png } = await render({
    lines: [words],
    font: 'Liberation Mono',
    size: 30,
    upper: true,
    stretch: 1200 / (words.join(' ').length * 30),
    margin: { left: 10, top: 2, right: 10, bottom: 4 },
  });
  const { result } = await runOcr(png, deps, { mode: 'document', languageHints: [] });
  assert.ok(found([words], result.text) >= 0.8, result.text);
});

/** A word lit by LED dots, as a sign shows it: light dots inside the letters' shapes, on black. */
async function ledSign(word: string, width: number, height: number, pitch: number): Promise<Buffer> {
  const svg = (body: string) =>
    Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="black"/>${body}</svg>`,
    );
  const letters = `<text x="${pitch * 2}" y="${Math.round(height * 0.83)}" font-family="Liberation Sans" font-weight="bold" font-size="${Math.round(height * 0.85)}" fill="white">${word}</text>`;
  let dots = '';
  for (let y = pitch / 2; y < height; y += pitch)
    for (let x = pitch / 2; x < width; x += pitch) dots += `<circle cx="${x}" cy="${y}" r="${pitch / 3}" fill="white"/>`;
  const [shape, grid] = await Promise.all([letters, dots].map((body) => sharp(svg(body)).greyscale().raw().toBuffer()));
  const rgb = Buffer.alloc(width * height * 3);
  for (let i = 0; i < width * height; i++) rgb[3 * i] = (shape[i] * grid[i]) / 255;
  return sharp(rgb, { raw: { width, height, channels: 3 } })
    .blur(1)
    .png()
    .toBuffer();
}

test('a crop of an LED sign, whose dots are no line to the detector, is read whole', async () => {
  const { result } = await runOcr(await ledSign('SALE', 360, 150, 9), deps, { mode: 'text', languageHints: [] });
  assert.match(result.text.replace(/\s+/g, ''), /SALE/);
});

test('a photo whose first look reads nothing legible is looked at once more, enlarged', async () => {
  // A small, soft street sign the detector finds only at twice the size; at its own size it boxes
  // only a dark bar elsewhere, which reads as nothing.
  const svg =
    '<svg xmlns="http://www.w3.org/2000/svg" width="1280" height="720"><rect width="100%" height="100%" fill="#7a8a99"/>' +
    '<rect x="100" y="100" width="160" height="8" fill="#222"/>' +
    '<text x="500" y="360" font-family="Liberation Sans" font-weight="bold" font-size="5.5" fill="#222">MARKET STREET</text></svg>';
  const png = await sharp(Buffer.from(svg)).blur(0.7).png().toBuffer();
  const image = await decodeImage(new Uint8Array(png));
  const firstLook = await detectText(image, models.detector, { photo: true });
  const readings = await deps.recognizer.recognize(
    image,
    firstLook.map((b) => b.box),
    { mode: 'text', languageHints: [], photo: true },
  );
  assert.ok(!readings.some(isLegible), JSON.stringify(readings.map((r) => r.text)));
  const { result } = await runOcr(png, deps, { mode: 'text', languageHints: [] });
  assert.equal(result.text.trim(), 'MARKET STREET');
});
