import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import type { OcrResult, Point, Quad } from '../ocr-types.ts';
import type { RecognizedLine } from '../recognize/recognized-line.ts';
import { buildLayout } from './build-layout.ts';

const PAGE = { width: 2000, height: 3000, mode: 'document' as const };

/** An axis-aligned line with its characters spread along it (a space is narrower than a letter, as in print). */
function line(text: string, x: number, y: number, width: number, height = 30, language?: string): RecognizedLine {
  return rotatedLine(
    text,
    [
      { x, y },
      { x: x + width, y },
      { x: x + width, y: y + height },
      { x, y: y + height },
    ],
    language,
  );
}

function rotatedLine(text: string, box: Quad, language?: string): RecognizedLine {
  const chars = Array.from(text);
  const widths = chars.map((c) => (c === ' ' ? 0.4 : 1));
  const total = widths.reduce((a, b) => a + b, 0);
  let at = 0;
  return {
    box,
    text,
    confidence: 0.9,
    chars: chars.map((c, i) => {
      const x0 = at / total;
      at += widths[i];
      return { text: c, x0, x1: c === ' ' ? x0 : (at - 0.1) / total, confidence: 0.9 };
    }),
    ...(language ? { language } : {}),
  };
}

const words = (r: OcrResult) => r.page.blocks.flatMap((b) => b.paragraphs.flatMap((p) => p.words));
const breaks = (r: OcrResult) => words(r).map((w) => `${w.text}|${w.symbols[w.symbols.length - 1].break ?? ''}`);

test('empty input gives an empty page without a locale', () => {
  const r = buildLayout([], PAGE);
  assert.equal(r.text, '');
  assert.equal(r.locale, undefined);
  assert.deepEqual(r.page.blocks, []);
  assert.equal(r.page.width, 2000);
});

test('a two-column page reads column by column, under a headline spanning both', () => {
  const lines = [line('A HEADLINE ACROSS BOTH COLUMNS OF THE PAGE', 100, 50, 1700, 60)];
  for (let k = 0; k < 8; k++) {
    // Same baselines in both columns: every row of the page has one line on each side.
    lines.push(line(`left column line number ${k} of text here`, 100, 200 + k * 40, 800));
    lines.push(line(`right column line number ${k} of text here`, 1000, 200 + k * 40, 800));
  }
  const r = buildLayout(lines.reverse(), PAGE);
  const got = r.text.split('\n');
  assert.equal(got[0], 'A HEADLINE ACROSS BOTH COLUMNS OF THE PAGE');
  for (let k = 0; k < 8; k++) {
    assert.equal(got[1 + k], `left column line number ${k} of text here`);
    assert.equal(got[9 + k], `right column line number ${k} of text here`);
  }
  assert.ok(r.page.blocks.length >= 3, 'headline, left column and right column are separate blocks');
});

test('two columns whose line boxes overlap their neighbours (a page detected small) read column by column', () => {
  // 20-px boxes every 15 px: no empty row between lines, so each column is one band of the y-projection.
  const lines = [line('Running head across the gutter', 300, 20, 400, 15)];
  for (let k = 0; k < 12; k++) {
    lines.push(line(`left column line ${k} of this page`, 60, 60 + k * 15, 340, 20));
    lines.push(line(`right column line ${k} of this page`, 430, 60 + k * 15, 340, 20));
  }
  const got = buildLayout(lines, PAGE).text.split('\n').filter(Boolean);
  assert.deepEqual(got, [
    'Running head across the gutter',
    ...Array.from({ length: 12 }, (_, k) => `left column line ${k} of this page`),
    ...Array.from({ length: 12 }, (_, k) => `right column line ${k} of this page`),
  ]);
});

/** One detected line running across a gutter: `left` in [x, x + column], `right` after a gap of `gutter` px. */
function bridgedLine(left: string, right: string, x: number, y: number, column: number, gutter: number): RecognizedLine {
  const width = 2 * column + gutter;
  const spread = (text: string, from: number) =>
    Array.from(text).map((t, i, all) => ({
      text: t,
      x0: (from + (column * i) / all.length) / width,
      x1: (from + (column * (i + 0.8)) / all.length) / width,
      confidence: 0.9,
    }));
  const chars = [
    ...spread(left, 0),
    { text: ' ', x0: column / width, x1: column / width, confidence: 0.9 },
    ...spread(right, column + gutter),
  ];
  return {
    box: [
      { x, y },
      { x: x + width, y },
      { x: x + width, y: y + 30 },
      { x, y: y + 30 },
    ],
    text: `${left} ${right}`,
    confidence: 0.9,
    chars,
  };
}

test('a two-column page whose rows the detector joined across a narrow gutter reads column by column', () => {
  // 36 characters in 500 px (14 px each), 30-px lines, a 28-px gutter: a typical 10-point magazine page at 300 dpi.
  const lines = Array.from({ length: 10 }, (_, k) =>
    bridgedLine(`left column row ${k} of the text body`, `right column row ${k} of the text bod`, 100, 100 + k * 40, 500, 28),
  );
  const got = buildLayout(lines, PAGE).text.split('\n').filter(Boolean);
  assert.deepEqual(got, [
    ...Array.from({ length: 10 }, (_, k) => `left column row ${k} of the text body`),
    ...Array.from({ length: 10 }, (_, k) => `right column row ${k} of the text bod`),
  ]);
});

test('lines already in reading order keep their wide gaps: a justified line stays one line', () => {
  // The same bridged rows, from a reader that laid out the page itself (a black-letter page read a column at a time).
  const row = (k: number) => [`a justified row ${k} with one space`, `wider than the others in the line`] as const;
  const lines = [0, 1, 2].map((k) => bridgedLine(...row(k), 100, 100 + k * 40, 500, 28));
  const got = buildLayout(lines, { ...PAGE, ordered: true })
    .text.split('\n')
    .filter(Boolean);
  assert.deepEqual(
    got,
    [0, 1, 2].map((k) => row(k).join(' ')),
  );
});

test('a river of wide word spaces down a few rows of one column does not make it two columns', () => {
  // Rows 2–4 of a justified paragraph have a wide space at about the same place: an empty strip 20 px
  // wide runs down them, but the words right of it start 30 px apart, as no column's rows would.
  const river: Record<number, [number, number]> = { 2: [400, 40], 3: [380, 90], 4: [420, 30] };
  const lines = Array.from({ length: 8 }, (_, k) =>
    river[k]
      ? bridgedLine(`row ${k} of the paragraph goes`, `on here ${k} with its words`, 100, 100 + k * 40, ...river[k])
      : line(`row ${k} of the paragraph goes on here with its words`, 100, 100 + k * 40, 830),
  );
  const got = buildLayout(lines, PAGE).text.split('\n').filter(Boolean);
  assert.deepEqual(
    got.map((t) => t.split(' ')[1]),
    ['0', '1', '2', '3', '4', '5', '6', '7'],
  );
});

test('a page header beside the columns reads before them and the page number after; a column heading stays in its column', () => {
  // A logo on the left, a header block set well inside the right column, and a page number in the corner:
  // they share the gutter with the columns but start where no column line does.
  const lines = [line('LOGO', 100, 40, 300, 50), line('Research note', 1300, 40, 400), line('March 3, 2019', 1300, 80, 400)];
  for (let k = 0; k < 8; k++) {
    const y = 200 + k * 40;
    lines.push(line(`left ${k} of the column text`, 100, y, 800));
    // The right column opens with a heading centred on it.
    lines.push(k === 0 ? line('A CENTRED HEADING', 1200, y, 400) : line(`right ${k} of the column text`, 1000, y, 800));
  }
  lines.push(line('Page 9', 1700, 600, 100));
  const got = buildLayout(lines.reverse(), PAGE).text.split('\n');
  assert.deepEqual(got.slice(0, 2), ['LOGO Research note', 'March 3, 2019']);
  assert.deepEqual(
    got.slice(2, 10),
    Array.from({ length: 8 }, (_, k) => `left ${k} of the column text`),
  );
  assert.deepEqual(got.slice(10, 18), ['A CENTRED HEADING', ...Array.from({ length: 7 }, (_, k) => `right ${k + 1} of the column text`)]);
  assert.equal(got[18], 'Page 9');
});

test('a header of two blocks side by side above the columns reads its left block, then its right one', () => {
  // A research note's masthead right above its columns: the company and its price on the left, the analyst
  // and the rating on the right.
  const lines = [
    line('Acme Mining Corp (ACM)', 100, 100, 600),
    line('Price: 46.64 Target: 47.00', 100, 140, 700),
    line('Analyst: Jane Roe', 1300, 100, 450),
    line('Rating: Neutral', 1300, 140, 400),
  ];
  for (let k = 0; k < 8; k++) {
    lines.push(line(`left ${k} of the column text`, 100, 200 + k * 40, 800));
    lines.push(line(`right ${k} of the column text`, 1000, 200 + k * 40, 800));
  }
  const got = buildLayout(lines.reverse(), PAGE).text.split('\n');
  assert.deepEqual(got.slice(0, 4), ['Acme Mining Corp (ACM)', 'Price: 46.64 Target: 47.00', 'Analyst: Jane Roe', 'Rating: Neutral']);
  assert.deepEqual(got.slice(4, 6), ['left 0 of the column text', 'left 1 of the column text']);
});

test('a wide empty strip across the page ends the columns: a title box above them reads first, row by row', () => {
  // A title box (a headline on the left, a rating on the right) over a two-column body, 3 line heights apart.
  const lines = [
    line('A HEADLINE ON THE LEFT', 100, 40, 700, 40),
    line('ZX', 1000, 40, 60, 40),
    line('with its subtitle under it', 100, 100, 700),
    line('Overweight', 1000, 100, 200),
  ];
  for (let k = 0; k < 8; k++) {
    lines.push(line(`left ${k} of the column text`, 100, 230 + k * 40, 800));
    lines.push(line(`right ${k} of the column text`, 1000, 230 + k * 40, 800));
  }
  const got = buildLayout(lines.reverse(), PAGE).text.split('\n');
  assert.deepEqual(got.slice(0, 2), ['A HEADLINE ON THE LEFT ZX', 'with its subtitle under it Overweight']);
  assert.deepEqual(
    got.slice(2, 10),
    Array.from({ length: 8 }, (_, k) => `left ${k} of the column text`),
  );
});

test('a picture caption across the gutter floats after the columns instead of breaking them', () => {
  const lines: RecognizedLine[] = [];
  for (let k = 0; k < 12; k++) {
    const y = 100 + k * 40;
    // Rows 4–7 wrap around a picture: the columns narrow and a short caption sits across the gutter.
    const around = k >= 4 && k < 8;
    lines.push(line(`left ${k} of the column text`, 100, y, around ? 500 : 860));
    lines.push(line(`right ${k} of the column text`, around ? 1400 : 1000, y, around ? 500 : 860));
    if (around) lines.push(line(`CAPTION ${k}`, 820, y + 5, 300, 24));
  }
  const got = buildLayout(lines, PAGE).text.split('\n');
  assert.deepEqual(
    got.slice(0, 12),
    Array.from({ length: 12 }, (_, k) => `left ${k} of the column text`),
  );
  assert.deepEqual(
    got.slice(12, 24),
    Array.from({ length: 12 }, (_, k) => `right ${k} of the column text`),
  );
  assert.deepEqual(got.slice(24, 28), ['CAPTION 4', 'CAPTION 5', 'CAPTION 6', 'CAPTION 7']);
});

test('columns narrowed beside a picture to the end of the page, its caption between their rows, read column by column', () => {
  const lines: RecognizedLine[] = [];
  for (let k = 0; k < 12; k++) {
    const y = 100 + k * 40;
    // From row 4 the picture takes the middle: the right column's lines start far from its edge.
    const beside = k >= 4;
    lines.push(line(`left ${k} of the column text`, 100, y, beside ? 500 : 860));
    lines.push(line(`right ${k} of the column text`, beside ? 1400 : 1000, y, beside ? 500 : 860));
    // Caption lines sit between the rows, each in a band of its own.
    if (k >= 8) lines.push(line(`CAPTION ${k}`, 820, y + 20, 300, 30));
  }
  const got = buildLayout(lines, PAGE).text.split('\n');
  assert.deepEqual(got.slice(0, 24), [
    ...Array.from({ length: 12 }, (_, k) => `left ${k} of the column text`),
    ...Array.from({ length: 12 }, (_, k) => `right ${k} of the column text`),
  ]);
  assert.deepEqual(got.slice(24, 28), ['CAPTION 8', 'CAPTION 9', 'CAPTION 10', 'CAPTION 11']);
});

test('a grid of short blocks beside a sidebar: each block and the sidebar read whole', () => {
  // Two narrow blocks side by side (a big figure over a few short lines, as on an annual report's
  // highlights page) and a sidebar beside them that runs on below the shorter one.
  const lines = [line('68%', 100, 100, 130, 80), line('19%', 700, 100, 130, 80)];
  const left = [
    'of senior staff have been',
    'with the firm for more',
    'than five years, and most',
    'of them for over ten, and',
    'a third for twenty.',
  ];
  const middle = ['Job applications rose', 'by a fifth compared with', 'last year.'];
  left.forEach((t, k) => lines.push(line(t, 100, 200 + k * 40, 400)));
  middle.forEach((t, k) => lines.push(line(t, 700, 200 + k * 40, t.length * 15)));
  const side = Array.from({ length: 9 }, (_, k) => `sidebar entry line ${k} here`);
  side.forEach((t, k) => lines.push(line(t, 1400, 80 + k * 40, 420)));
  const got = buildLayout(lines.reverse(), PAGE).text.split('\n').filter(Boolean);
  assert.deepEqual(got, ['68%', ...left, '19%', ...middle, ...side]);
});

test('a table reads row by row: its labels and its columns of figures are not two text columns', () => {
  const lines: RecognizedLine[] = [];
  const labels = [
    'Revenue from all operations',
    'Operating profit before tax',
    'Net income for the year',
    'Earnings per share basic',
    'Dividend per share paid',
    'Capital spending in total',
  ];
  labels.forEach((label, k) => {
    // A long label, then three figures as separate cells, all on the row's baseline.
    lines.push(line(label, 100, 200 + k * 40, 800));
    for (let c = 0; c < 3; c++) lines.push(line(`${k + 1},${c}00.${c}`, 1000 + c * 300, 200 + k * 40, 200));
  });
  const r = buildLayout(lines.reverse(), PAGE);
  const got = r.text.split('\n');
  labels.forEach((label, k) => assert.equal(got[k], `${label} ${k + 1},000.0 ${k + 1},100.1 ${k + 1},200.2`));
});

test('a receipt keeps "label … price" on one line of text', () => {
  const lines = [line('GROCERY MART LTD', 200, 20, 400)];
  const items = ['MILK 1L', 'BREAD RYE LOAF', 'EGGS 12PK', 'ROTI CANAI', 'TOTAL'];
  items.forEach((label, k) => {
    lines.push(line(label, 20, 100 + k * 36, label.length * 15));
    lines.push(line(`${k + 1}.50`, 700, 102 + k * 36, 60));
  });
  const r = buildLayout(lines, { width: 800, height: 400, mode: 'text' });
  assert.equal(r.text, `GROCERY MART LTD\n${items.map((l, k) => `${l} ${k + 1}.50`).join('\n')}\n`);
});

test('right-to-left pages read each row from the right', () => {
  // The detector split one Arabic row in two: the right-hand part is read first.
  const r = buildLayout([line('صباح اليوم', 100, 100, 300), line('ذهبت إلى السوق', 500, 102, 400), line('سطر ثان', 600, 160, 300)], PAGE);
  assert.equal(r.text, 'ذهبت إلى السوق صباح اليوم\nسطر ثان\n');
  assert.equal(r.locale, 'ar');
});

test('scattered scene words read top-to-bottom, then left-to-right', () => {
  const lines = [
    line('EXIT', 900, 400, 120, 40),
    line('OPEN', 100, 80, 120, 40),
    line('SALE', 600, 395, 120, 40),
    line('24H', 1100, 90, 90, 40),
  ];
  const r = buildLayout(lines, { width: 1280, height: 720, mode: 'text' });
  assert.equal(r.text, 'OPEN 24H\nSALE EXIT\n');
});

test('breaks: SPACE inside a line, EOL_SURE_SPACE and HYPHEN between lines, LINE_BREAK ending a paragraph', () => {
  const lines = [
    line('the first para-', 100, 100, 600),
    line('graph goes on', 100, 140, 600),
    line('and ends.', 100, 180, 300),
    line('Second paragraph', 100, 300, 600),
  ];
  const r = buildLayout(lines, PAGE);
  assert.deepEqual(breaks(r), [
    'the|SPACE',
    'first|SPACE',
    'para-|HYPHEN',
    'graph|SPACE',
    'goes|SPACE',
    'on|EOL_SURE_SPACE',
    'and|SPACE',
    'ends|',
    '.|LINE_BREAK',
    'Second|SPACE',
    'paragraph|LINE_BREAK',
  ]);
  assert.equal(r.text, 'the first para-\ngraph goes on\nand ends.\nSecond paragraph\n');
  assert.equal(r.page.blocks.flatMap((b) => b.paragraphs).length, 2);
});

test('punctuation at word ends is its own token without changing the text', () => {
  const r = buildLayout([line('WAITING? (PLEASE) 12.50 e-mail', 10, 10, 600)], PAGE);
  assert.deepEqual(
    words(r).map((w) => w.text),
    ['WAITING', '?', '(', 'PLEASE', ')', '12.50', 'e-mail'],
  );
  assert.equal(r.text, 'WAITING? (PLEASE) 12.50 e-mail\n');
});

test('CJK: each Han or kana character is a word, Hangul words keep their spaces; languages by script', () => {
  const zh = buildLayout([line('你好世界', 10, 10, 200)], PAGE);
  assert.deepEqual(
    words(zh).map((w) => w.text),
    ['你', '好', '世', '界'],
  );
  assert.equal(zh.text, '你好世界\n');
  assert.equal(zh.locale, 'zh');
  const ja = buildLayout([line('東京へようこそ', 10, 10, 300)], PAGE);
  assert.equal(ja.locale, 'ja');
  assert.deepEqual(words(ja)[0].languages, [{ languageCode: 'ja', confidence: 1 }]);
  const ko = buildLayout([line('안녕하세요 세계', 10, 10, 300)], PAGE);
  assert.deepEqual(
    words(ko).map((w) => w.text),
    ['안녕하세요', '세계'],
  );
  assert.equal(ko.locale, 'ko');
  const plate = buildLayout([line('皖A5P237', 10, 10, 200)], PAGE);
  assert.deepEqual(
    words(plate).map((w) => w.text),
    ['皖', 'A5P237'],
  );
  assert.equal(plate.text, '皖A5P237\n');
});

test('languages: Arabic, Vietnamese, Cyrillic, Devanagari, Latin hints; locale is the dominant one', () => {
  const cases: Array<[string, string, string?]> = [
    ['ذهبت إلى السوق', 'ar'],
    ['Kiên NHẪN HỌC', 'vi'],
    ['Привет мир', 'ru'],
    ['नमस्ते दुनिया', 'hi'],
    ['Bonjour le monde', 'fr', 'fr'],
    ['Hello world', 'en'],
  ];
  for (const [text, expected, hint] of cases) {
    const r = buildLayout([line(text, 10, 10, 600, 30, hint)], PAGE);
    assert.equal(r.locale, expected, text);
    assert.ok(
      words(r).every((w) => w.languages[0]?.languageCode === expected),
      text,
    );
  }
  const mixed = buildLayout([line('Hello there my friends', 10, 10, 600), line('你好', 10, 60, 60)], PAGE);
  assert.equal(mixed.locale, 'en');
  assert.deepEqual(
    mixed.page.languages.map((l) => l.languageCode),
    ['en', 'zh'],
  );
  const digits = buildLayout([line('Total 12.50', 10, 10, 300)], PAGE);
  assert.deepEqual(words(digits)[1].languages, [{ languageCode: 'en', confidence: 1 }]);
});

test('confidences are means at every level', () => {
  const l = line('ab cd', 10, 10, 100);
  l.chars = l.chars.map((c, i) => ({ ...c, confidence: [0.2, 0.4, 1, 0.6, 0.8][i] }));
  const r = buildLayout([l], PAGE);
  const [ab, cd] = words(r);
  assert.ok(Math.abs(ab.confidence - 0.3) < 1e-9 && Math.abs(cd.confidence - 0.7) < 1e-9);
  assert.ok(Math.abs(r.page.blocks[0].paragraphs[0].confidence - 0.5) < 1e-9);
  assert.ok(Math.abs(r.page.confidence - 0.5) < 1e-9);
});

function insideQuad(p: Point, q: Quad, tolerance: number): boolean {
  for (let i = 0; i < 4; i++) {
    const a = q[i];
    const b = q[(i + 1) % 4];
    const cross = (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x);
    if (cross / Math.hypot(b.x - a.x, b.y - a.y) < -tolerance) return false;
  }
  return true;
}

test('symbol and word boxes lie inside their line, also for rotated lines', () => {
  const angle = (25 * Math.PI) / 180;
  const at = (x: number, y: number): Point => ({
    x: 300 + x * Math.cos(angle) - y * Math.sin(angle),
    y: 300 + x * Math.sin(angle) + y * Math.cos(angle),
  });
  const box: Quad = [at(0, 0), at(500, 0), at(500, 40), at(0, 40)];
  const r = buildLayout([rotatedLine('tilted words here', box)], PAGE);
  assert.deepEqual(
    words(r).map((w) => w.text),
    ['tilted', 'words', 'here'],
  );
  for (const w of words(r)) {
    for (const p of w.box) assert.ok(insideQuad(p, box, 1), `word ${w.text} corner ${JSON.stringify(p)}`);
    for (const s of w.symbols) for (const p of s.box) assert.ok(insideQuad(p, box, 1), `symbol ${s.text}`);
    // Reading order of the corners follows the line: top-left → top-right goes along +25°.
    assert.ok(w.box[1].x > w.box[0].x && w.box[1].y > w.box[0].y);
  }
});

test('a page photographed at 90°: lines in reading order along the rotated axis', () => {
  // Text runs downwards (top edge points +y); "up" in the text is +x, so the first line is rightmost.
  const vertical = (text: string, x: number): RecognizedLine =>
    rotatedLine(text, [
      { x, y: 100 },
      { x, y: 700 },
      { x: x - 30, y: 700 },
      { x: x - 30, y: 100 },
    ]);
  const r = buildLayout([vertical('third line', 300), vertical('first line', 400), vertical('second line', 350)], PAGE);
  assert.equal(r.text, 'first line\nsecond line\nthird line\n');
});

test('hostile lines: NaN boxes, blank text, out-of-range chars, boxes off the page', () => {
  const nan = line('nan', 0, 0, 100);
  nan.box = [
    { x: NaN, y: 0 },
    { x: 1, y: 0 },
    { x: 1, y: 1 },
    { x: 0, y: 1 },
  ];
  const blank = line('   ', 10, 10, 100);
  const odd = line('odd', 10, 100, 100);
  odd.chars = [
    { text: 'o', x0: -5, x1: 0.2, confidence: 7 },
    { text: 'd', x0: 0.9, x1: 0.1, confidence: NaN },
    { text: 'd', x0: 0.5, x1: 9, confidence: 0.5 },
  ];
  const offPage = line('far away', -500, 2990, 5000, 50);
  const noChars = { ...line('fallback text', 10, 200, 300), chars: [] };
  const r = buildLayout([nan, blank, odd, offPage, noChars], PAGE);
  assert.equal(r.text, 'odd\nfallback text\nfar away\n');
  for (const w of words(r)) {
    assert.ok(w.confidence >= 0 && w.confidence <= 1);
    for (const p of [...w.box, ...w.symbols.flatMap((s) => s.box)]) {
      assert.ok(p.x >= 0 && p.x <= 2000 && p.y >= 0 && p.y <= 3000 && Number.isInteger(p.x) && Number.isInteger(p.y));
    }
  }
});

test('thousands of lines: a two-column page of 3000 lines and 10000 scattered words finish', () => {
  const lines: RecognizedLine[] = [];
  for (let k = 0; k < 1500; k++) {
    lines.push(line(`left ${k} with enough words to be a column`, 100, k * 40, 800));
    lines.push(line(`right ${k} with enough words to be a column`, 1000, k * 40, 800));
  }
  const r = buildLayout(lines, { width: 2000, height: 60000, mode: 'document' });
  const got = r.text.split('\n');
  assert.equal(got[0], 'left 0 with enough words to be a column');
  assert.equal(got[1499], 'left 1499 with enough words to be a column');
  assert.equal(got[1500], 'right 0 with enough words to be a column');
  const rnd = fc.sample(fc.tuple(fc.integer({ min: 0, max: 4000 }), fc.integer({ min: 0, max: 4000 })), { numRuns: 10000, seed: 7 });
  const scattered = rnd.map(([x, y], i) => line(`w${i}`, x, y, 40, 20));
  assert.equal(words(buildLayout(scattered, { width: 4100, height: 4100, mode: 'text' })).length, 10000);
});

test('property: every word appears once, text matches the words and breaks, boxes stay on the page', () => {
  const arbLine = fc.record({
    text: fc.stringMatching(/^[A-Za-z0-9.,!? 你好]{1,20}$/),
    x: fc.integer({ min: -50, max: 1000 }),
    y: fc.integer({ min: -50, max: 1000 }),
    w: fc.integer({ min: 1, max: 800 }),
    h: fc.integer({ min: 1, max: 80 }),
  });
  fc.assert(
    fc.property(fc.array(arbLine, { maxLength: 40 }), (specs) => {
      const lines = specs.map((s) => line(s.text, s.x, s.y, s.w, s.h));
      const r = buildLayout(lines, { width: 1000, height: 1000, mode: 'text' });
      const expected = lines.flatMap((l) => l.text.split(/\s+/).filter(Boolean)).join('').length;
      assert.equal(
        words(r)
          .map((w) => w.text)
          .join('').length,
        expected,
      );
      assert.equal(r.text.replace(/\s/g, '').length, expected);
      assert.ok(r.text === '' || r.text.endsWith('\n'));
      for (const w of words(r)) for (const p of w.box) assert.ok(p.x >= 0 && p.x <= 1000 && p.y >= 0 && p.y <= 1000);
    }),
    { numRuns: 200 },
  );
});
