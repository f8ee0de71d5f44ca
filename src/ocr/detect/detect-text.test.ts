import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import sharp from 'sharp';
import { fixture } from '../../../test/fixtures/images/fixtures.ts';
import { decodeImage } from '../decode/decode-image.ts';
import { DEFAULT_SIZING, detectText, planAtScale, planDetection, STRIP_VALUES, type TextBox } from './detect-text.ts';
import { loadModels, type OcrModels } from '../models/models.ts';

let models: OcrModels;
before(async () => {
  models = await loadModels({ threads: 1 });
});
after(() => models.release());

test('plans are whole multiples of the detector stride at any scale', () => {
  for (const [w, h, s] of [
    [1000, 700, 0.37],
    [31, 5, 3],
    [4000, 3000, 0.24],
  ] as const) {
    const plan = planAtScale(w, h, s);
    assert.equal(plan.tensorWidth % 32, 0);
    assert.equal(plan.tensorHeight % 32, 0);
    assert.ok(plan.tensorWidth >= plan.width + 2 * plan.pad && plan.tensorHeight >= plan.height + 2 * plan.pad);
  }
  // Photos near the target size are read as they are; smaller ones are brought up to it.
  assert.deepEqual(planDetection(1280, 720), planAtScale(1280, 720, 1));
  assert.deepEqual(planDetection(1024, 576), planAtScale(1024, 576, 736 / 576));
  // A scanned text line keeps its size (its text is as tall as it is); a word crop is still doubled.
  assert.deepEqual(planDetection(760, 51), planAtScale(760, 51, 1));
  assert.deepEqual(planDetection(900, 30), planAtScale(900, 30, 48 / 30));
  assert.deepEqual(planDetection(98, 48), planAtScale(98, 48, 2));
});

/** The page fixture enlarged to 2 400 px wide: above the probe's threshold and the strips' size. */
async function bigPage() {
  const page = await sharp(fixture('page.png')).resize({ width: 2400 }).png().toBuffer();
  return decodeImage(new Uint8Array(page));
}

/** Asserts that the centre of every box of `found` lies inside the axis-aligned bounds of some box of `by`. */
function assertCentresCovered(found: readonly TextBox[], by: readonly TextBox[], what: string): void {
  for (const { box } of found) {
    const c = { x: box.reduce((s, p) => s + p.x, 0) / 4, y: box.reduce((s, p) => s + p.y, 0) / 4 };
    const covered = by.some((b) => {
      const xs = b.box.map((p) => p.x),
        ys = b.box.map((p) => p.y);
      return c.x >= Math.min(...xs) && c.x <= Math.max(...xs) && c.y >= Math.min(...ys) && c.y <= Math.max(...ys);
    });
    assert.ok(covered, `box at ${JSON.stringify(c)} is ${what}`);
  }
}

test('a big page with large text is detected from the cheap probe, with the same boxes as at full size', async () => {
  const image = await bigPage();
  const full = planDetection(image.width, image.height);
  assert.ok(full.tensorWidth * full.tensorHeight > DEFAULT_SIZING.probeAbovePixels, 'the probe applies');
  const probed = await detectText(image, models.detector);
  const direct = await detectText(image, models.detector, { sizing: { ...DEFAULT_SIZING, probeAbovePixels: Infinity } });
  assert.ok(probed.length >= 3, `${probed.length} boxes`);
  // Every box found at full size lies inside one found by the probe (a full-size line may split in two).
  assertCentresCovered(direct, probed, 'found by the probe');
});

test('a page detected in strips gives the boxes of the page detected whole', async () => {
  const image = await bigPage();
  const sizing = { ...DEFAULT_SIZING, probeAbovePixels: Infinity };
  const plan = planDetection(image.width, image.height, sizing);
  assert.ok(3 * plan.tensorWidth * plan.tensorHeight > 2 * STRIP_VALUES, 'three strips or more');
  const strips = await detectText(image, models.detector, { sizing });
  const whole = await detectText(image, models.detector, { sizing, stripValues: Infinity });
  // The detector's squeeze-and-excitation blocks weigh channels by their mean over the whole input,
  // so a strip's map is close to the page's, not equal: a line may split at another word gap.
  assert.ok(Math.abs(strips.length - whole.length) <= 1, `${strips.length} boxes in strips, ${whole.length} whole`);
  assertCentresCovered(whole, strips, 'found in strips');
});

test('a big page with small text is detected again at a larger scale', async () => {
  // The same page as a quarter of a large white canvas: its text is small once the canvas is probed.
  const small = await sharp(fixture('page.png')).png().toBuffer();
  const canvas = await sharp({ create: { width: 2400, height: 1800, channels: 3, background: '#ffffff' } })
    .composite([{ input: small, left: 40, top: 40 }])
    .png()
    .toBuffer();
  const image = await decodeImage(new Uint8Array(canvas));
  const boxes = await detectText(image, models.detector);
  assert.ok(boxes.length >= 3, `${boxes.length} boxes`);
  assert.ok(
    boxes.every((b) => b.box.every((p) => p.x < 700 && p.y < 420)),
    'boxes lie on the pasted page',
  );
});

test('a photo where nothing is found at its own size is found when looked at enlarged', async () => {
  // Text 4 px tall on a 1280×720 photo: the detector sees nothing at 1×, and finds the line at 1.6×.
  const svg =
    '<svg xmlns="http://www.w3.org/2000/svg" width="1280" height="720"><rect width="100%" height="100%" fill="#7a8a99"/>' +
    '<text x="500" y="360" font-family="sans-serif" font-size="4" fill="#222">OPEN DAILY 9 TO 5</text></svg>';
  const image = await decodeImage(new Uint8Array(await sharp(Buffer.from(svg)).png().toBuffer()));
  assert.equal((await detectText(image, models.detector)).length, 0);
  // No room to enlarge: nothing.
  assert.equal((await detectText(image, models.detector, { enlarged: true, sizing: { ...DEFAULT_SIZING, maxSide: 1280 } })).length, 0);
  const boxes = await detectText(image, models.detector, { enlarged: true });
  assert.equal(boxes.length, 1);
  const [p0, , p2] = boxes[0].box;
  assert.ok(p0.x > 480 && p2.x < 560 && p0.y > 350 && p2.y < 370, "the box is in the image's own pixels");
});
