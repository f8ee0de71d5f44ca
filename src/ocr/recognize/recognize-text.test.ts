import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import sharp from 'sharp';
import { editDistance } from '../../../bench/ocr/char-error-rate.ts';
import { FIXTURE_TEXT, fixture } from '../../../test/fixtures/images/fixtures.ts';
import { decodeImage, type DecodedImage } from '../decode/decode-image.ts';
import { loadModels, type OcrModels, type OnnxModel } from '../models/models.ts';
import { OUTPUT_COLUMNS, TOP_CLASSES } from '../models/top-class-output.ts';
import type { Quad } from '../ocr-types.ts';
import { detectText } from '../detect/detect-text.ts';
import { createPaddleRecognizer, MAX_RUN, pieceCuts, recognizeLines } from './recognize-text.ts';

let models: OcrModels;
before(async () => {
  models = await loadModels({ threads: 1 });
});
after(() => models.release());

/** The model, with the dims of every run it is given shown to `see` first. */
const watched = (model: OnnxModel, see: (dims: readonly number[]) => void): OnnxModel => ({
  run: (input, dims) => {
    see(dims);
    return model.run(input, dims);
  },
});

/** The first Chinese character of the Chinese recognizer's dictionary. */
const chineseClass = () => models.han.dictionary.findIndex((c) => /\p{Script=Han}/u.test(c));

/**
 * A stand-in for Chinese print (no CJK font on the test machine): the model's output with every
 * character it read replaced by one Chinese character, read as sure.
 */
const seesChinese = (model: OnnxModel): OnnxModel => ({
  run: async (input, dims) => {
    const out = await model.run(input, dims);
    const data = out.data.slice();
    const chinese = chineseClass();
    // Per timestep: the top classes' probabilities, then their indices, then the space's (`top-class-output.ts`).
    for (let t = 0; t < data.length; t += OUTPUT_COLUMNS)
      if (data[t + TOP_CLASSES] !== 0) [data[t], data[t + TOP_CLASSES]] = [0.99, chinese];
    return { data, dims: out.dims };
  },
});

/** The fixture line repeated `copies` times side by side, and the quad around all of it (as the detector leaves a margin). */
async function repeatedLine(copies: number): Promise<{ image: DecodedImage; quad: Quad }> {
  const line = Buffer.from(fixture('line.png'));
  const { width = 0, height = 0 } = await sharp(line).metadata();
  const long = await sharp({ create: { width: width * copies, height, channels: 3, background: '#ffffff' } })
    .composite(Array.from({ length: copies }, (_, k) => ({ input: line, left: k * width, top: 0 })))
    .png()
    .toBuffer();
  const quad: Quad = [
    { x: 20, y: 8 },
    { x: copies * width - 40, y: 8 },
    { x: copies * width - 40, y: height - 6 },
    { x: 20, y: height - 6 },
  ];
  return { image: await decodeImage(new Uint8Array(long)), quad };
}

test('a line reads the same alone and among other lines', async () => {
  const image = await decodeImage(fixture('page.png'));
  const boxes = (await detectText(image, models.detector)).map((b) => b.box);
  assert.ok(boxes.length >= 3, `${boxes.length} lines`);
  const together = await recognizeLines(image, boxes, models.latin.model, models.latin.dictionary);
  for (const [i, box] of boxes.entries()) {
    const [alone] = await recognizeLines(image, [box], models.latin.model, models.latin.dictionary);
    assert.equal(alone.text, together[i].text);
    assert.equal(alone.confidence, together[i].confidence);
  }
});

test('a long line (drawn smaller inside the 48 rows) reads like a short one', async () => {
  const { image, quad } = await repeatedLine(2);
  const [reading] = await recognizeLines(image, [quad], models.latin.model, models.latin.dictionary);
  const letters = (s: string) => s.replace(/\s+/g, '');
  assert.equal(letters(reading.text), letters(FIXTURE_TEXT.line).repeat(2));
  assert.ok(reading.confidence > 0.8, `confidence ${reading.confidence}`);
});

test("every line read carries its ink for the word-gap fix, a page's and a photo's", async () => {
  // One copy is read in one run; twelve are wider than a run and read in pieces.
  for (const copies of [1, 12]) {
    const { image, quad } = await repeatedLine(copies);
    const [print] = await recognizeLines(image, [quad], models.latin.model, models.latin.dictionary);
    const [photo] = await recognizeLines(image, [quad], models.latin.model, models.latin.dictionary, { photo: true });
    assert.ok(print.ink && print.text.length > 0, `${copies}`);
    assert.ok(photo.ink && photo.text.length > 0, `${copies}`);
  }
});

test('a line wider than one recognizer run is read in pieces cut between words, and reads whole', async () => {
  const copies = 12;
  const { image, quad } = await repeatedLine(copies);
  // The real session, its input widths recorded.
  const widths: number[] = [];
  const recorded = watched(models.latin.model, (dims) => widths.push(dims[3]));
  const [reading] = await recognizeLines(image, [quad], recorded, models.latin.dictionary);
  assert.ok(widths.length >= 2, `${widths.length} runs`);
  // Each run is a piece and the 24 blank columns that follow print.
  assert.ok(
    widths.every((w) => w <= MAX_RUN + 24),
    `runs ${widths.join(', ')}`,
  );
  const letters = (s: string) => s.replace(/\s+/g, '');
  // The English recognizer misses one letter of the twelve copies, inside a run, not at a cut.
  assert.ok(editDistance(letters(reading.text), letters(FIXTURE_TEXT.line).repeat(copies)) <= 1, reading.text);
  assert.ok(
    reading.chars.every((c, i) => c.x0 <= c.x1 && (i === 0 || reading.chars[i - 1].x0 <= c.x0)),
    'positions run left to right over the whole line',
  );
});

test('pieces are cut in the widest gap of their second half, and never wider than a run', () => {
  assert.deepEqual(pieceCuts(100, [], 40), [40, 80]);
  assert.deepEqual(
    pieceCuts(
      100,
      [
        { start: 10, end: 14 },
        { start: 24, end: 28 },
        { start: 30, end: 38 },
        { start: 60, end: 62 },
      ],
      40,
    ),
    [34, 61],
  );
  assert.deepEqual(pieceCuts(40, [{ start: 10, end: 20 }], 40), []);
});

test('with the int8 recognizer: documents are read by it, photos and what it cannot read by the fp32 one', async (t) => {
  const both = await loadModels({ threads: 1, recognizerPrecision: 'int8' });
  t.after(() => both.release());
  assert.ok(both.latin.int8, 'the stored calibration fits the npm model');
  // The real sessions, counted.
  const calls = { fp32: 0, int8: 0 };
  const counted = (model: OnnxModel, name: keyof typeof calls) =>
    watched(model, (dims) => {
      calls[name] += dims[0];
    });
  const recognizer = createPaddleRecognizer({
    latin: { model: counted(both.latin.model, 'fp32'), dictionary: both.latin.dictionary, int8: counted(both.latin.int8!, 'int8') },
    han: both.han,
  });
  const line = Buffer.from(fixture('line.png'));
  const { width = 0, height = 0 } = await sharp(line).metadata();
  const padded = await sharp(line).extend({ right: 200, background: '#ffffff' }).png().toBuffer();
  const image = await decodeImage(new Uint8Array(padded));
  const box = (x0: number, x1: number): Quad => [
    { x: x0, y: 0 },
    { x: x1, y: 0 },
    { x: x1, y: height },
    { x: x0, y: height },
  ];
  const text = box(0, width);
  const blank = box(width + 20, width + 180);
  const letters = (s: string) => s.replace(/\s+/g, '');

  const [asDocument, blankLine] = await recognizer.recognize(image, [text, blank], { languageHints: [], mode: 'document' });
  assert.deepEqual(calls, { int8: 2, fp32: 1 }, 'both lines in int8, the empty one again in fp32');
  // int8's own reading (it may differ from fp32's by a letter, with confidence: why it is opt-in).
  const [int8Reading] = await recognizeLines(image, [text], both.latin.int8!, both.latin.dictionary);
  assert.equal(asDocument.text, int8Reading.text);
  assert.equal(blankLine.text, '');

  calls.int8 = calls.fp32 = 0;
  const [asPhoto] = await recognizer.recognize(image, [text], { languageHints: [], mode: 'text', photo: true });
  assert.deepEqual(calls, { int8: 0, fp32: 1 });
  assert.equal(letters(asPhoto.text), letters(FIXTURE_TEXT.line));
});

test('the English recognizer reads Latin text; the Chinese one images hinted Chinese, or found to hold it without a hint', async () => {
  const image = await decodeImage(fixture('page.png'));
  const boxes = (await detectText(image, models.detector)).map((b) => b.box);
  assert.ok(boxes.length >= 3, `${boxes.length} lines`);
  const calls = { latin: 0, han: 0 };
  const counted = (model: OnnxModel, name: keyof typeof calls) =>
    watched(model, (dims) => {
      calls[name] += dims[0];
    });
  const latin = { ...models.latin, model: counted(models.latin.model, 'latin') };
  const reading = (han: OnnxModel) => createPaddleRecognizer({ latin, han: { ...models.han, model: han } });
  const read = async (han: OnnxModel, languageHints: string[]) => {
    calls.latin = calls.han = 0;
    const readings = await reading(han).recognize(image, boxes, { languageHints, mode: 'document' });
    return { ...calls, text: readings.map((r) => r.text).join('\n') };
  };

  const english = await read(counted(models.han.model, 'han'), ['en']);
  assert.deepEqual([english.latin, english.han], [boxes.length, 0]);
  assert.match(english.text, /[a-z]{4}/);
  const unhinted = await read(counted(models.han.model, 'han'), []);
  assert.deepEqual(
    [unhinted.latin, unhinted.han],
    [boxes.length, Math.min(3, boxes.length)],
    'a sample of up to three lines is read by the Chinese recognizer',
  );
  assert.equal(unhinted.text, english.text, 'no Chinese in the sample: the English reading stands');
  const hinted = await read(counted(models.han.model, 'han'), ['zh-TW']);
  assert.deepEqual([hinted.latin, hinted.han], [0, boxes.length]);
  const found = await read(seesChinese(counted(models.han.model, 'han')), []);
  assert.deepEqual([found.latin, found.han], [boxes.length, Math.min(3, boxes.length) + boxes.length], 'the sample, then every line whole');
  assert.ok(
    [...found.text.replace(/\s/g, '')].every((c) => c === models.han.dictionary[chineseClass()]),
    found.text,
  );
});

test('without a hint, the Chinese sample reads the middle of a long line, not all of it', async () => {
  const { image, quad } = await repeatedLine(4);
  const widest = { latin: 0, han: 0 };
  const widths = (model: OnnxModel, name: keyof typeof widest) =>
    watched(model, (dims) => {
      widest[name] = Math.max(widest[name], dims[3]);
    });
  const recognizer = createPaddleRecognizer({
    latin: { ...models.latin, model: widths(models.latin.model, 'latin') },
    han: { ...models.han, model: widths(models.han.model, 'han') },
  });
  const [reading] = await recognizer.recognize(image, [quad], { languageHints: [], mode: 'document' });
  assert.match(reading.text, /[a-z]{4}/);
  // 8 heights at the recognizer's 48 rows, and the blank that follows every crop.
  assert.ok(widest.han > 0 && widest.han <= 8 * 48 + 48, `Chinese sample ${widest.han} columns`);
  assert.ok(widest.latin > 2 * widest.han, `the line ${widest.latin} columns`);
});

test("a photo's doubtful line is read by both recognizers and the surer reading wins; sure lines and print are not", async () => {
  const image = await decodeImage(fixture('page.png'));
  const [box] = (await detectText(image, models.detector)).map((b) => b.box);
  let hanRuns = 0;
  const han = watched(models.han.model, () => hanRuns++);
  // The real Latin model made unsure: every timestep's best probability halved.
  const unsure: OnnxModel = {
    run: async (input, dims) => {
      const out = await models.latin.model.run(input, dims);
      const data = out.data.slice();
      for (let t = 0; t < data.length; t += OUTPUT_COLUMNS) data[t] *= 0.5;
      return { data, dims: out.dims };
    },
  };
  const read = async (latin: OnnxModel, hanModel: OnnxModel, photo: boolean) => {
    hanRuns = 0;
    const recognizer = createPaddleRecognizer({ latin: { ...models.latin, model: latin }, han: { ...models.han, model: hanModel } });
    const [reading] = await recognizer.recognize(image, [box], { languageHints: ['en'], mode: 'text', photo });
    return { reading, hanRuns };
  };
  const [own] = await recognizeLines(image, [box], models.han.model, models.han.dictionary, { photo: true });
  assert.ok(own.confidence > 0.5 && /[a-z]{3}/.test(own.text), own.text);

  const doubted = await read(unsure, han, true);
  assert.equal(doubted.hanRuns, 1);
  assert.equal(doubted.reading.text, own.text, "the Chinese model's surer reading");
  assert.equal((await read(models.latin.model, han, true)).hanRuns, 0, 'a sure line is read once');
  assert.equal((await read(unsure, han, false)).hanRuns, 0, 'print is read by the Latin model alone');

  // A second reading in Chinese characters does not win on a Latin line, however sure.
  const kept = await read(unsure, seesChinese(han), true);
  assert.equal(kept.hanRuns, 1);
  assert.doesNotMatch(kept.reading.text, /\p{Script=Han}/u);
});

test("a leaning line of a Chinese image's photo is also read upright and the surer reading kept; upright lines and print are read once", async () => {
  /** Bold plate-like print on green, sheared by `lean` columns per row and softened, with the quad of the whole image. */
  const plate = async (lean: number) => {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="330" height="80"><rect width="100%" height="100%" fill="#2a5"/>
      <text x="20" y="62" font-family="DejaVu Sans" font-weight="bold" font-size="56">KD40723</text></svg>`;
    const png = await sharp(Buffer.from(svg)).affine([1, lean, 0, 1], { background: '#2a5' }).blur(1.2).png().toBuffer();
    const image = await decodeImage(new Uint8Array(png));
    const quad: Quad = [
      { x: 0, y: 0 },
      { x: image.width, y: 0 },
      { x: image.width, y: image.height },
      { x: 0, y: image.height },
    ];
    return { image, quad };
  };
  let hanRuns = 0;
  const han = watched(models.han.model, () => hanRuns++);
  const recognizer = createPaddleRecognizer({ latin: models.latin, han: { ...models.han, model: han } });
  const read = async (lean: number, photo: boolean) => {
    const { image, quad } = await plate(lean);
    hanRuns = 0;
    const [reading] = await recognizer.recognize(image, [quad], { languageHints: ['zh'], mode: 'text', photo });
    const [once] = await recognizeLines(image, [quad], models.han.model, models.han.dictionary, { photo });
    return { reading, once, runs: hanRuns };
  };
  const leaning = await read(0.6, true);
  assert.equal(leaning.runs, 2);
  assert.equal(leaning.reading.text, 'KD40723');
  assert.ok(leaning.reading.confidence >= leaning.once.confidence);
  assert.equal((await read(0, true)).runs, 1, 'an upright line is read once');
  assert.equal((await read(0.6, false)).runs, 1, 'print is read once');
});
