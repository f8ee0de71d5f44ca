import { test, type TestContext } from 'node:test';
import sharp from 'sharp';
import { cerCount } from '../bench/ocr/char-error-rate.ts';
import { normalizeForCer } from '../bench/ocr/normalize-text.ts';
import { quadCentre } from '../src/ocr/geometry.ts';
import { loadEnglishLexicon } from '../src/ocr/words/english-lexicon.ts';
import { buildLayout } from '../src/ocr/layout/build-layout.ts';
import { loadModels } from '../src/ocr/models/models.ts';
import { runOcr } from '../src/ocr/ocr-pipeline.ts';
import { createPaddleRecognizer } from '../src/ocr/recognize/recognize-text.ts';
import { findChromium, launchChromium, skipWithoutChromium } from './helpers/find-chromium.ts';

const CHROMIUM = findChromium();

const SENTENCES = [
  'The committee met on Tuesday to review the annual budget and the plans for the new library building.',
  'Several members asked why the costs of maintenance had risen so sharply over the last two years.',
  'According to the report, most of the increase came from heating, insurance and repairs to the roof.',
  'Residents who attended the meeting spoke in favour of longer opening hours during the winter months.',
  'In the end the committee agreed to publish the figures and to hold a public hearing next month.',
];

/** A page of justified text in `columns` columns `gapEm` apart (Liberation Serif, 300-dpi sizes by default), rendered by Chromium. */
async function renderColumns(t: TestContext, columns: number, gapEm: number, text: string, fontPx = 38): Promise<Uint8Array> {
  const browser = await launchChromium(t, CHROMIUM);
  const page = await browser.newPage({ viewport: { width: 2400, height: 1200 } });
  const style = `width:2200px;margin:100px;column-count:${columns};column-gap:${gapEm}em;font:${fontPx}px/1.2 'Liberation Serif';text-align:justify;hyphens:none`;
  await page.setContent(`<body style="margin:0;background:#fff"><div id="t" style="${style}">${text}</div></body>`);
  return page.locator('#t').screenshot({ type: 'png' });
}

test('a four-column page with 1.2 em gutters reads column by column (the detector joins its rows across the gutters)', {
  skip: skipWithoutChromium(CHROMIUM),
}, async (t: TestContext) => {
  const text = Array.from({ length: 14 }, (_, i) => SENTENCES[(i * 3) % SENTENCES.length]).join(' ');
  const png = await renderColumns(t, 4, 1.2, text);
  const models = await loadModels({ threads: 1 });
  t.after(() => models.release());
  const recognizer = createPaddleRecognizer(models);
  const { result } = await runOcr(
    png,
    { models, recognizer, buildLayout, lexicon: await loadEnglishLexicon() },
    { mode: 'document', languageHints: [] },
  );
  const { edits, length } = cerCount(normalizeForCer(result.text, 'en'), normalizeForCer(text, 'en'));
  // Read row by row across the columns, the same words give 1 − CER of about 0.4.
  t.assert.ok(1 - edits / length > 0.95, `1 − CER ${(1 - edits / length).toFixed(3)}:\n${result.text}`);
});

test('a two-column page scanned sideways or upside down reads as upright, its boxes in the turned image', {
  skip: skipWithoutChromium(CHROMIUM),
}, async (t: TestContext) => {
  // Small print: turned, the detector's cheap first look (960 px) takes each line's length for its height and runs it together.
  const text = Array.from({ length: 60 }, (_, i) => SENTENCES[(i * 2) % SENTENCES.length]).join(' ');
  const png = await renderColumns(t, 2, 2, text, 24);
  const models = await loadModels({ threads: 1 });
  t.after(() => models.release());
  const deps = { models, recognizer: createPaddleRecognizer(models), buildLayout, lexicon: await loadEnglishLexicon() };
  const { width = 0, height = 0 } = await sharp(png).metadata();
  for (const degrees of [90, 180, 270]) {
    const turned = await sharp(png).rotate(degrees).png().toBuffer();
    const { result } = await runOcr(turned, deps, { mode: 'document', languageHints: [] });
    const { edits, length } = cerCount(normalizeForCer(result.text, 'en'), normalizeForCer(text, 'en'));
    t.assert.ok(1 - edits / length > 0.95, `${degrees}°: 1 − CER ${(1 - edits / length).toFixed(3)}:\n${result.text}`);
    // The first word is at the upright page's top left: where that corner went when the page was turned.
    const { x: cx, y: cy } = quadCentre(result.page.blocks[0].paragraphs[0].words[0].box);
    const [w, h] = degrees === 180 ? [width, height] : [height, width];
    const corner = { 90: { x: w, y: 0 }, 180: { x: w, y: h }, 270: { x: 0, y: h } }[degrees] ?? { x: 0, y: 0 };
    t.assert.ok(Math.abs(cx - corner.x) < w / 4 && Math.abs(cy - corner.y) < h / 4, `${degrees}°: first word at ${cx}, ${cy} in ${w}×${h}`);
  }
});
