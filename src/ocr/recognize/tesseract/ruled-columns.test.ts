import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import sharp from 'sharp';
import type { DecodedImage } from '../../decode/decode-image.ts';
import { droppedBlocks, readRuledPage } from './read-ruled-page.ts';
import { ruledColumns } from './ruled-columns.ts';
import { createTesseractRecognizer } from './tesseract-recognizer.ts';
import { TesseractWorkers } from './tesseract-workers.ts';
import { rectQuad } from '../../geometry.ts';

const workers = new TesseractWorkers({ maxLoaded: 1 });
after(() => workers.close());

const WIDTH = 1400;
const HEIGHT = 1500;
const PITCH = 44;
const FIRST_LINE = 260;

interface PageOptions {
  /** Columns' rules: x and the rows they span, and how many of their first rows are a 10-px blot (worn type). */
  rules?: Array<{ x: number; top: number; bottom: number; blot?: number }>;
  /** Where the right column's lines start (712: a 12-px gutter right of the rule). */
  rightX?: number;
  /** Text of the left and right column's lines. */
  left?: readonly string[];
  right?: readonly string[];
  /** A frame around the whole page, as a scan's dark border. */
  border?: boolean;
  /** A section rule across the page at this row (a newspaper's feuilleton line). */
  section?: number;
  /** The page turned by this many degrees, as a skewed scan. */
  skew?: number;
}

/**
 * A newspaper-like page: a title across the top, two columns of body lines 24 px apart (a narrow gutter
 * with a 3-px rule in it), the last line of each column below the rule's end.
 */
async function page(options: PageOptions): Promise<DecodedImage> {
  const line = (x: number, y: number, text: string) => `<text x="${x}" y="${y}" font-family="DejaVu Serif" font-size="26">${text}</text>`;
  // An empty text leaves its line's row blank.
  const left = (options.left ?? []).map((t, i) => (t ? line(40, FIRST_LINE + i * PITCH, t) : ''));
  const right = (options.right ?? []).map((t, i) => (t ? line(options.rightX ?? 712, FIRST_LINE + i * PITCH, t) : ''));
  const section = options.section === undefined ? '' : `<rect x="30" y="${options.section}" width="${WIDTH - 60}" height="3" fill="#111"/>`;
  const rules = (options.rules ?? []).map(
    (r) =>
      `<rect x="${r.x - 1}" y="${r.top}" width="3" height="${r.bottom - r.top}" fill="#111"/>` +
      (r.blot ? `<rect x="${r.x - 5}" y="${r.top}" width="10" height="${r.blot}" fill="#111"/>` : ''),
  );
  const border = options.border
    ? `<rect x="4" y="4" width="${WIDTH - 8}" height="${HEIGHT - 8}" fill="none" stroke="#000" stroke-width="8"/>`
    : '';
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}"><rect width="100%" height="100%" fill="#fff"/>
    <g transform="rotate(${options.skew ?? 0} ${WIDTH / 2} ${HEIGHT / 2})">
    <text x="${WIDTH / 2}" y="120" text-anchor="middle" font-family="DejaVu Serif" font-size="72">The Morning Courier</text>
    ${left.join('')}${right.join('')}${rules.join('')}${section}</g>${border}</svg>`;
  const { data, info } = await sharp(Buffer.from(svg)).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, rgb: new Uint8Array(data), format: 'png', scale: 1 };
}

const WORDS = ['harbour', 'market', 'council', 'weather', 'railway', 'letters', 'theatre', 'grain', 'shipping', 'courts'];
/** Body lines as wide as a column, each naming its column and number so that a line read across both shows. */
const column = (side: 'west' | 'east') =>
  Array.from({ length: 27 }, (_, i) => `${side} ${i + 1} ${WORDS[i % WORDS.length]} and ${WORDS[(i + 3) % WORDS.length]} news`);
const RULE = { x: 700, top: 220, bottom: 1380 };

test('a page is cut at its column rule: the title across it, then each column, the lines below its end included', async () => {
  const regions = ruledColumns(await page({ rules: [RULE], left: column('west'), right: column('east'), border: true }));
  assert.equal(regions.length, 3, JSON.stringify(regions));
  const [title, west, east] = regions;
  assert.ok(!title.column && title.width === WIDTH && title.y === 0 && title.height <= RULE.top + 8, JSON.stringify(title));
  assert.ok(west.column && east.column);
  // The rule's own ink (3 px at 699–701) is in neither column.
  assert.ok(west.x + west.width <= 699 && west.x + west.width >= 694 && east.x >= 702 && east.x <= 706, JSON.stringify(regions));
  // The rule ends above the columns' last line (as on scans where it fades); the columns still reach the page's foot.
  assert.equal(west.y + west.height, HEIGHT);
});

test("a column's first line stays in it where the rule starts beside that line: thick, or with the line set close to it", async () => {
  // The first lines' glyphs span rows ~241–266; the rule starts at 250, inside them.
  const top = { ...RULE, top: 250 };
  const cases: Array<[string, PageOptions]> = [
    ['a rule starting in a blot', { rules: [{ ...top, blot: 22 }] }],
    ['a line 2 px right of the rule', { rules: [top], rightX: 703 }],
  ];
  for (const [what, options] of cases) {
    const regions = ruledColumns(await page({ ...options, left: column('west'), right: column('east') }));
    const columns = regions.filter((r) => r.column);
    assert.equal(columns.length, 2, `${what}: ${JSON.stringify(regions)}`);
    assert.ok(
      columns.every((c) => c.y <= 238),
      `${what}: ${JSON.stringify(regions)}`,
    );
  }
});

test('a page without a rule is one region, and a scan border or a double rule makes no column', async () => {
  const plain = await page({ left: column('west'), right: column('east'), border: true });
  assert.deepEqual(ruledColumns(plain), [{ x: 0, y: 0, width: WIDTH, height: HEIGHT }]);
  const double = await page({ rules: [RULE, { ...RULE, x: RULE.x + 8 }], left: column('west'), right: column('east') });
  assert.equal(ruledColumns(double).filter((r) => r.column).length, 2);
});

test('columns end at a section rule across the page: the part above is read before the part below, on a skewed scan too', async () => {
  // Twelve lines per column above the rule, a blank row, then the rule and twelve more below: the two
  // sections' column rules stand 50 px apart, which a rule's own breaks (up to two 32-row bands) would bridge.
  const [above, below] = [
    { ...RULE, bottom: 790 },
    { ...RULE, top: 840 },
  ];
  const lines = (side: 'west' | 'east') => [...column(side).slice(0, 12), '', '', ...column(side).slice(12, 24)];
  for (const skew of [0, 0.6]) {
    const regions = ruledColumns(await page({ rules: [above, below], left: lines('west'), right: lines('east'), section: 812, skew }));
    const columns = regions.filter((r) => r.column);
    assert.equal(columns.length, 4, `${skew}°: ${JSON.stringify(regions)}`);
    // West then east above the rule, then west then east below it.
    assert.deepEqual(
      columns.map((c) => [c.x < 700 ? 'west' : 'east', c.y + c.height <= 830 ? 'above' : c.y >= 800 ? 'below' : 'across']),
      [
        ['west', 'above'],
        ['east', 'above'],
        ['west', 'below'],
        ['east', 'below'],
      ],
      `${skew}°: ${JSON.stringify(regions)}`,
    );
  }
  // Without the section rule the same page's columns run from top to foot (the rules' break is bridged).
  const unbroken = ruledColumns(await page({ rules: [above, below], left: lines('west'), right: lines('east') }));
  assert.equal(unbroken.filter((r) => r.column).length, 2, JSON.stringify(unbroken));
});

test('a ruled page is read a column at a time: no line runs from one column into the other', async () => {
  const image = await page({ rules: [RULE], left: column('west'), right: column('east') });
  const tesseract = createTesseractRecognizer(workers);
  const lines = await readRuledPage(image, [], 26, tesseract, ['eng'], 1, async () => []);
  const texts = lines.map((l) => l.reading.text);
  const side = (text: string) => (/west/i.test(text) ? 'west' : /east/i.test(text) ? 'east' : undefined);
  assert.ok(!texts.some((t) => /west/i.test(t) && /east/i.test(t)), texts.join('\n'));
  const sides = texts.map(side).filter((s) => s !== undefined);
  assert.ok(sides.filter((s) => s === 'west').length >= 25 && sides.filter((s) => s === 'east').length >= 25, texts.join('\n'));
  assert.equal(sides.indexOf('east'), sides.lastIndexOf('west') + 1, 'every west line before every east line');
});

test('lines Tesseract left out of a column are found when they make a block, not for a stray line or blot', () => {
  const body = 20;
  const detected = Array.from({ length: 12 }, (_, i) => rectQuad(10, 100 + i * 30, 600, 120 + i * 30));
  const read = (rows: number[]) => rows.map((i) => rectQuad(12, 99 + i * 30, 598, 121 + i * 30));
  // Lines 4–7 (four lines, 110 px: over three body lines) are missing.
  const dropped = droppedBlocks(detected, read([0, 1, 2, 3, 8, 9, 10, 11]), body);
  assert.deepEqual(dropped, detected.slice(4, 8));
  // One line missing is a line Tesseract found nothing in (a rule, a smudge), not a dropped block.
  assert.deepEqual(droppedBlocks(detected, read([0, 1, 2, 3, 4, 6, 7, 8, 9, 10, 11]), body), []);
  // Marks side by side on one row at the column's foot are no block either, however many.
  const blots = [rectQuad(10, 500, 40, 515), rectQuad(60, 498, 90, 516), rectQuad(120, 501, 300, 518)];
  assert.deepEqual(droppedBlocks([...detected, ...blots], read([...detected.keys()]), body), []);
});
