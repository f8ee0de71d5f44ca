import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import sharp from 'sharp';
import { FIXTURE_TEXT, fixture } from '../../test/fixtures/images/fixtures.ts';
import { screenedPage } from '../../test/helpers/screened-page.ts';
import { decodeImage } from './decode/decode-image.ts';
import { detectText, photoDetectionScale, planDetection } from './detect/detect-text.ts';
import { buildLayout } from './layout/build-layout.ts';
import { loadModels, type OcrModels } from './models/models.ts';
import { runOcr, type OcrPipelineDeps } from './ocr-pipeline.ts';
import type { OcrOptions } from './ocr-types.ts';
import type { RecognizedLine } from './recognize/recognized-line.ts';
import { createPaddleRecognizer, recognizeLines } from './recognize/recognize-text.ts';
import { fixText } from './words/text-fixes.ts';

let models: OcrModels;
let deps: OcrPipelineDeps;
let lastLines: RecognizedLine[] = [];
/** Whether the pipeline last asked the recognizer to read a photo's lines. */
let lastPhoto: boolean | undefined;
const TEXT: OcrOptions = { mode: 'text', languageHints: [] };

before(async () => {
  models = await loadModels({ threads: 1 });
  const recognizer = createPaddleRecognizer(models);
  deps = {
    models,
    recognizer: {
      ...recognizer,
      recognize: (image, quads, options) => {
        lastPhoto = options?.photo;
        return recognizer.recognize(image, quads, options);
      },
    },
    buildLayout: (lines, page) => {
      lastLines = lines;
      return buildLayout(lines, page);
    },
  };
});
after(() => models.release());

const squash = (s: string) => s.replace(/\s+/g, ' ').trim();
/** Word gaps are the least certain part of a reading (see ctc-decode.ts): compare the letters. */
const letters = (s: string) => s.replace(/\s+/g, '');

test('detection finds the box of a rendered line, in original pixels', async () => {
  const image = await decodeImage(fixture('line.png'));
  const boxes = await detectText(image, models.detector);
  assert.equal(boxes.length, 1);
  const xs = boxes[0].box.map((p) => p.x),
    ys = boxes[0].box.map((p) => p.y);
  // "Legible 2048" is drawn from x≈32 to x≈240, baseline y≈51, 32 px font.
  assert.ok(Math.min(...xs) < 40 && Math.max(...xs) > 220 && Math.max(...xs) < 300, `x ${xs}`);
  assert.ok(Math.min(...ys) < 30 && Math.max(...ys) > 48 && Math.max(...ys) <= 64, `y ${ys}`);
});

test('detection size: small photos are enlarged, big pages shrunk within bounds, strips padded', () => {
  const photo = planDetection(1280, 720);
  assert.ok(photo.height >= 720 && photo.tensorWidth % 32 === 0 && photo.tensorHeight % 32 === 0);
  const page = planDetection(2480, 3508);
  assert.ok(Math.max(page.width, page.height) <= 2016 && page.width > 1000);
  const strip = planDetection(760, 50);
  assert.ok(strip.pad > 0 && strip.tensorHeight > strip.height);
});

test('a photo larger than scene size is detected first with its short side at 736, whatever the camera', () => {
  assert.equal(photoDetectionScale(1920, 1080), 736 / 1080);
  assert.equal(photoDetectionScale(3024, 4032), 736 / 3024);
  // At scene size already, or smaller (enlarged by the plan instead): no such step.
  assert.equal(photoDetectionScale(1280, 720), undefined);
  assert.equal(photoDetectionScale(640, 360), undefined);
});

test('recognition reads a rendered line with per-character positions', async () => {
  const image = await decodeImage(fixture('line.png'));
  const [box] = (await detectText(image, models.detector)).map((b) => b.box);
  // Word gaps are placed by the text-fix stage, from the ink the recognizer measured.
  const [reading] = fixText(await recognizeLines(image, [box], models.latin.model, models.latin.dictionary), {});
  assert.equal(reading.text, FIXTURE_TEXT.line);
  assert.ok(reading.confidence > 0.8);
  assert.equal(reading.chars.map((c) => c.text).join(''), reading.text);
  const space = reading.chars.findIndex((c) => c.text === ' ');
  // "Legible" takes a bit more than half of the line.
  assert.ok(reading.chars[space].x0 > 0.45 && reading.chars[space].x1 < 0.75, JSON.stringify(reading.chars[space]));
});

test('the pipeline reads a page, with lines in reading order and languages', async () => {
  const { result, timings } = await runOcr(fixture('page.png'), deps, TEXT, true);
  assert.equal(squash(result.text), FIXTURE_TEXT.page.join(' '));
  assert.equal(lastLines.length, 3);
  assert.ok(lastLines.every((l) => l.language === 'en'));
  assert.ok(timings && ['decode', 'detect', 'classify', 'recognize', 'layout'].every((k) => typeof timings[k] === 'number'));
});

test('a heading printed white on a halftone bar is read with the lines around it', async () => {
  // A scanner binarises a grey bar into black dots as sharp as the letters; read as they are, the
  // detector sees a texture and the heading comes back as nothing (descreen.ts).
  const { result } = await runOcr(await screenedPage(), deps, TEXT);
  assert.deepEqual(result.text.trim().split('\n'), [
    'Quarterly results of the northern division',
    'Harbour Freight Holdings (HFH, Hold, target 41.50)',
    'Revenue grew by a tenth over the year before.',
  ]);
});

test('a page is read the same way whichever feature asks: the image decides, not TEXT or DOCUMENT', async () => {
  await runOcr(fixture('page.png'), deps, TEXT);
  const asText = lastLines.map((l) => [l.text, l.confidence]);
  await runOcr(fixture('page.png'), deps, { ...TEXT, mode: 'document' });
  assert.deepEqual(
    lastLines.map((l) => [l.text, l.confidence]),
    asText,
  );
});

test('a receipt photographed on a dark table is read as the scanned receipt is, not as a street photo', async () => {
  const rows = Array.from(
    { length: 20 },
    (_, i) => `<text x="20" y="${40 + i * 32}" font-family="Liberation Mono" font-size="20">ITEM ${i + 1} QTY ${i + 2} ${i + 3}.50</text>`,
  ).join('');
  const receipt = await sharp(
    Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="760" height="760"><rect width="100%" height="100%" fill="white"/>${rows}</svg>`,
    ),
  )
    .png()
    .toBuffer();
  const onTable = await sharp(receipt).extend({ top: 200, bottom: 200, left: 300, right: 300, background: '#3e2e22' }).png().toBuffer();
  const read = async (bytes: Buffer) => {
    await runOcr(new Uint8Array(bytes), deps, TEXT);
    return { photo: lastPhoto, text: lastLines.map((l) => l.text) };
  };
  const scanned = await read(receipt);
  assert.deepEqual(scanned.photo, false);
  assert.equal(scanned.text.length, 20);
  assert.deepEqual(await read(onTable), scanned);
  // The street around it, without the receipt, is a photo.
  const street = await sharp({ create: { width: 1360, height: 1160, channels: 3, background: '#3e2e22' } })
    .png()
    .toBuffer();
  await read(
    await sharp(street)
      .composite([
        {
          input: Buffer.from(
            `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="80"><rect width="100%" height="100%" fill="white"/><text x="20" y="55" font-family="Liberation Sans" font-size="40">EXIT 12</text></svg>`,
          ),
          left: 400,
          top: 300,
        },
      ])
      .png()
      .toBuffer(),
  );
  assert.equal(lastPhoto, true);
});

test('an image decoded shrunk reports its page size and boxes in its original pixels', async () => {
  // The page fixture placed on a 6000×4000 canvas (24 MP, decoded at ~16 MP) at (3000, 2000).
  const page = await sharp(fixture('page.png')).resize({ width: 1500 }).toBuffer();
  const bytes = await sharp({ create: { width: 6000, height: 4000, channels: 3, background: '#fff' } })
    .composite([{ input: page, left: 3000, top: 2000 }])
    .png({ compressionLevel: 1 })
    .toBuffer();
  const { result } = await runOcr(new Uint8Array(bytes), deps, TEXT);
  assert.equal(squash(result.text), FIXTURE_TEXT.page.join(' '));
  const pageOut = result.page;
  assert.ok(Math.abs(pageOut.width - 6000) <= 1 && Math.abs(pageOut.height - 4000) <= 1, `${pageOut.width}×${pageOut.height}`);
  const xs = lastLines.flatMap((l) => l.box.map((p) => p.x));
  const ys = lastLines.flatMap((l) => l.box.map((p) => p.y));
  assert.ok(Math.min(...xs) > 3000 && Math.max(...xs) < 4500, `x ${Math.min(...xs)}..${Math.max(...xs)}`);
  assert.ok(Math.min(...ys) > 2000, `y ${Math.min(...ys)}`);
});

test('every supported format reads the same text', async () => {
  for (const name of ['line.png', 'line.webp', 'line.tiff', 'line.avif', 'line.bmp', 'line-animated.gif', 'line-alpha.png']) {
    const { result } = await runOcr(fixture(name), deps, TEXT);
    assert.equal(squash(result.text), FIXTURE_TEXT.line, name);
  }
  const ico = await runOcr(fixture('line.ico'), deps, TEXT);
  assert.equal(squash(ico.result.text), FIXTURE_TEXT.icon);
});

test('EXIF-rotated, CMYK, 16-bit and grey pages read the same, boxes as displayed', async () => {
  for (const name of ['page-exif6.jpg', 'page-cmyk.jpg', 'page-16bit.png', 'page-grey.png']) {
    const { result } = await runOcr(fixture(name), deps, TEXT);
    assert.equal(letters(result.text), letters(FIXTURE_TEXT.page.join('')), name);
    assert.deepEqual([result.page.width, result.page.height], [640, 360], name);
  }
  // The first line ("Receipt 4711") is at the top left of the displayed image.
  const first = lastLines.find((l) => l.text.startsWith('Receipt'));
  assert.ok(first && first.box[0].x < 60 && first.box[0].y < 40, JSON.stringify(first?.box));
});

test('upside-down and sideways pages are turned before reading', async () => {
  for (const name of ['page-upside-down.png', 'page-sideways.png']) {
    const { result } = await runOcr(fixture(name), deps, TEXT);
    assert.equal(letters(result.text), letters(FIXTURE_TEXT.page.join('')), name);
  }
  // Reading direction is corner 0 → 1: right to left on the upside-down page.
  await runOcr(fixture('page-upside-down.png'), deps, TEXT);
  assert.ok(lastLines.every((l) => l.box[0].x > l.box[1].x));
});

test('blank and 1×1 images give empty results', async () => {
  for (const size of [1, 300]) {
    const png = await sharp({ create: { width: size, height: size, channels: 3, background: '#fff' } })
      .png()
      .toBuffer();
    const { result } = await runOcr(new Uint8Array(png), deps, TEXT);
    assert.equal(result.text, '');
    assert.deepEqual(result.page.blocks, []);
  }
});

test('thousands of tiny text boxes: bounded work, no crash', async () => {
  const cells: string[] = [];
  for (let y = 14; y < 1200; y += 14)
    for (let x = 4; x < 1200; x += 30) cells.push(`<text x="${x}" y="${y}" font-size="10" font-family="DejaVu Sans">a1</text>`);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="1200"><rect width="100%" height="100%" fill="white"/>${cells.join('')}</svg>`;
  const png = await sharp(Buffer.from(svg)).png().toBuffer();
  const { timings } = await runOcr(new Uint8Array(png), deps, TEXT, true);
  assert.ok(cells.length > 3000);
  assert.ok(timings && timings.lines <= 1000, `${timings?.lines} lines`);
});

const VISION_SAMPLE = path.resolve(import.meta.dirname, '../../../shared/data/vision-samples/text.jpg');

test("Google's text.jpg sample: the update screen is read", {
  skip: !fs.existsSync(VISION_SAMPLE) && 'no ../shared/data/vision-samples',
}, async () => {
  const { result } = await runOcr(new Uint8Array(fs.readFileSync(VISION_SAMPLE)), deps, TEXT);
  assert.match(result.text, /System Software Update/);
  assert.match(result.text, /37%/);
});
