import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import sharp from 'sharp';
import type { LineCrop } from '../recognize/crop-line.ts';
import type { CtcReading } from '../recognize/ctc-decode.ts';
import type { DecodedImage } from '../decode/decode-image.ts';
import { inkProfile, otsuThreshold } from '../recognize/ink-profile.ts';
import { loadModels, type OcrModels } from '../models/models.ts';
import type { Quad } from '../ocr-types.ts';
import { recognizeLines } from '../recognize/recognize-text.ts';
import { fixText } from './text-fixes.ts';
import { refineWordGaps } from './word-gaps.ts';

/** DejaVu Sans Mono's advance is 0.602 em (1233/2048). */
const MONO_ADVANCE = 0.602;
const FONT_SIZE = 30;
const LEFT = 10;

async function render(text: string, font: string, width: number, height = 48, attrs = ''): Promise<DecodedImage> {
  const escaped = text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="white"/>
    <text x="${LEFT}" y="${Math.round(height * 0.72)}" font-family="${font}" font-size="${FONT_SIZE}" fill="black" xml:space="preserve" ${attrs}>${escaped}</text></svg>`;
  const { data, info } = await sharp(Buffer.from(svg)).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, rgb: new Uint8Array(data) } as DecodedImage;
}

/** A reading of monospace `cells` (the rendered text) that says `read`: peaks at the cell centres of the read characters. */
function monoReading(cells: string, read: string[], width: number): CtcReading {
  const advance = MONO_ADVANCE * FONT_SIZE;
  const chars: CtcReading['chars'] = [];
  const centres: number[] = [];
  let cell = 0;
  for (const t of read) {
    if (t === ' ') {
      // A recognizer space sits between its neighbours' cells.
      const at = (LEFT + cell * advance) / width;
      chars.push({ text: ' ', x0: at, x1: at, confidence: 0.9 });
      centres.push(at);
      continue;
    }
    while (cells[cell] === ' ') cell++;
    const c = (LEFT + (cell + 0.5) * advance) / width;
    chars.push({ text: t, x0: c - advance / 2 / width, x1: c + advance / 2 / width, confidence: 0.9 });
    centres.push(c);
    cell++;
  }
  return { text: read.join(''), confidence: 0.9, chars, centres };
}

const asCrop = (img: DecodedImage): LineCrop => ({ width: img.width, height: img.height, rgb: img.rgb });

test('otsuThreshold splits a two-level histogram between the levels', () => {
  const h = new Array(256).fill(0);
  h[30] = 100;
  h[220] = 300;
  const t = otsuThreshold(h);
  assert.ok(t >= 30 && t < 220);
});

test('a space the recognizer dropped comes back at a word-sized blank (monospace receipt text)', async () => {
  const text = 'GIFT VOUCHER 3.405';
  const img = await render(text, 'DejaVu Sans Mono', 360);
  const out = refineWordGaps(monoReading(text, [...'GIFTVOUCHER3.405'], img.width), asCrop(img));
  assert.equal(out.text, 'GIFT VOUCHER 3.405');
  assert.ok(!('centres' in out), 'the CTC-only field does not leak into the reading');
});

test("the recognizer's spaces stand; the ink adds the one it missed", async () => {
  const text = 'PLEASE RETURN';
  const img = await render(text, 'DejaVu Sans Mono', 260);
  const out = refineWordGaps(monoReading(text, [...'PLEAS', ' ', ...'ERETURN'], img.width), asCrop(img));
  assert.equal(out.text, 'PLEAS E RETURN');
});

test('a blank inside a word stays one where the recognizer gave the space almost no chance', async () => {
  const text = 'GIFT VOUCHER';
  const img = await render(text, 'DejaVu Sans Mono', 260);
  const reading = monoReading(text, [...'GIFTVOUCHER'], img.width);
  // The recognizer saw one word: no space between T and V more likely than 1 %.
  const doubted = { ...reading, chars: reading.chars.map((c, i) => (i === 4 ? { ...c, spaceBefore: 0.01 } : c)) };
  assert.equal(refineWordGaps(doubted, asCrop(img)).text, 'GIFTVOUCHER');
  const likely = { ...reading, chars: reading.chars.map((c, i) => (i === 4 ? { ...c, spaceBefore: 0.08 } : c)) };
  assert.equal(refineWordGaps(likely, asCrop(img)).text, 'GIFT VOUCHER');
});

test('words written on a form underline: the rule is no ink, the gaps between words stay blank', async () => {
  const text = 'TEST ARTICLE NUMBER';
  const img = await render(text, 'DejaVu Sans Mono', 400);
  // A 2-px field rule through the text band, under the letters from end to end.
  for (let y = 34; y < 36; y++) img.rgb.fill(0, y * img.width * 3, (y + 1) * img.width * 3);
  const out = refineWordGaps(monoReading(text, [...'TESTARTICLENUMBER'], img.width), asCrop(img));
  assert.equal(out.text, 'TEST ARTICLE NUMBER');
});

test('word edges move out to the ink', async () => {
  const text = 'SALE NOW';
  const img = await render(text, 'DejaVu Sans Mono', 200);
  const reading = monoReading(text, [...'SALENOW'], img.width);
  // Peaks inside the glyphs: the CTC extents start late and end early.
  reading.chars = reading.chars.map((c) => ({ ...c, x0: c.x0 + 0.02, x1: c.x1 - 0.02 }));
  const out = refineWordGaps(reading, asCrop(img));
  assert.equal(out.text, 'SALE NOW');
  const profile = inkProfile(asCrop(img))!;
  assert.ok(Math.abs(out.chars[0].x0 * img.width - profile.inkRuns[0].start) <= 1);
  assert.ok(Math.abs(out.chars[out.chars.length - 1].x1 * img.width - profile.inkRuns[profile.inkRuns.length - 1].end) <= 1);
  const space = out.chars.findIndex((c) => c.text === ' ');
  assert.ok(out.chars[space - 1].x1 < out.chars[space + 1].x0, 'the words do not overlap');
});

test('CJK neighbours never gain or lose spaces', async () => {
  const img = await render('AB CD', 'DejaVu Sans Mono', 140);
  const reading = monoReading('AB CD', ['A', '中', 'C', 'D'], img.width);
  assert.equal(refineWordGaps(reading, asCrop(img)).text, 'A中CD');
});

test("outlined text on a busy photo (no blank columns between letters): the recognizer's spaces stand", async () => {
  const text = 'WAKE UP NOW';
  const [width, height] = [240, 48];
  // White letters outlined in black over Gaussian noise, as meme text on a photo: every column holds "ink".
  const letters = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <text x="${LEFT}" y="35" font-family="DejaVu Sans Mono" font-size="${FONT_SIZE}" fill="white" stroke="black" stroke-width="2" xml:space="preserve">${text}</text></svg>`;
  const { data, info } = await sharp({
    create: { width, height, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 70 } },
  })
    .composite([{ input: Buffer.from(letters) }])
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const reading = monoReading(text, [...'WAKE', ' ', ...'UP', ' ', ...'NOW'], info.width);
  assert.equal(refineWordGaps(reading, { width: info.width, height: info.height, rgb: new Uint8Array(data) }).text, 'WAKE UP NOW');
});

test('hostile crops: blank, tiny, truncated buffer or mismatched peaks leave the reading as read', async () => {
  const blank = await sharp({ create: { width: 80, height: 48, channels: 3, background: '#777' } })
    .raw()
    .toBuffer();
  const reading = monoReading('AB', ['A', 'B'], 80);
  assert.equal(refineWordGaps(reading, { width: 80, height: 48, rgb: new Uint8Array(blank) }).text, 'AB');
  assert.equal(refineWordGaps(reading, { width: 1, height: 1, rgb: new Uint8Array(3) }).text, 'AB');
  assert.equal(refineWordGaps(reading, { width: 80, height: 48, rgb: new Uint8Array(10) }).text, 'AB');
  assert.equal(refineWordGaps({ ...reading, centres: [0.5] }, { width: 80, height: 48, rgb: new Uint8Array(blank) }).text, 'AB');
  assert.equal(
    refineWordGaps({ text: '', confidence: 0, chars: [], centres: [] }, { width: 80, height: 48, rgb: new Uint8Array(blank) }).text,
    '',
  );
});

let models: OcrModels;
before(async () => {
  models = await loadModels({ threads: 1 });
});

const lineQuad = (img: DecodedImage): Quad => [
  { x: 0, y: 0 },
  { x: img.width, y: 0 },
  { x: img.width, y: img.height },
  { x: 0, y: img.height },
];

test('real recognizer: words of proportional, condensed and letter-spaced monospace lines', async () => {
  const cases: Array<[string, string, number, string]> = [
    ['Parcels left here are not insured', 'Liberation Sans', 460, ''],
    ['KORVEL HARDWARE SHOP', 'Liberation Sans Narrow', 340, ''],
    ['PLEASE CALL AGAIN TOMORROW', 'DejaVu Sans Mono', 720, 'letter-spacing="3"'],
  ];
  for (const [text, font, width, attrs] of cases) {
    const img = await render(text, font, width, 48, attrs);
    const [reading] = fixText(await recognizeLines(img, [lineQuad(img)], models.latin.model, models.latin.dictionary), {});
    assert.equal(reading.text, text, `${font}: ${reading.text}`);
  }
});

test('numbers hold together: no word gap before a separator, a wide one only after a point', async () => {
  // A tabular "1" leaves most of its cell blank: modelled by a whole blank cell before the separator.
  // After a point, one blank cell is a loose price ("64. 75"); two are a numbered item ("1.  3071").
  const text = 'NET 1 .48 5 ,716 1, 2 64. 75 1.  3071';
  const img = await render(text, 'DejaVu Sans Mono', 720);
  const out = refineWordGaps(monoReading(text, [...'NET1.485,7161,264.751.3071'], img.width), asCrop(img));
  assert.equal(out.text, 'NET 1.48 5,716 1, 2 64.75 1. 3071');
});
