import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bagOfWordsCount, f1, sumCounts } from './bag-of-words.ts';
import { cerCount, editDistance, oneMinusCer } from './char-error-rate.ts';
import { normalizeForCer, spottingText, wordTokens } from './normalize-text.ts';
import { polygonIou, type Polygon } from './polygon-iou.ts';
import { parseTesseractTsv } from './run-tesseract.ts';
import { wordSpottingCount } from './word-spotting.ts';

const rect = (x: number, y: number, w: number, h: number): Polygon => [
  [x, y],
  [x + w, y],
  [x + w, y + h],
  [x, y + h],
];
const near = (a: number, b: number) => assert.ok(Math.abs(a - b) < 1e-9, `${a} ≈ ${b}`);

test('polygon IoU: identical, disjoint, half-shifted, rotated, either winding, degenerate', () => {
  near(polygonIou(rect(0, 0, 10, 10), rect(0, 0, 10, 10)), 1);
  near(polygonIou(rect(0, 0, 10, 10), rect(20, 0, 10, 10)), 0);
  near(polygonIou(rect(0, 0, 10, 10), rect(5, 0, 10, 10)), 50 / 150);
  near(polygonIou(rect(0, 0, 10, 10), [...rect(0, 0, 10, 10)].reverse()), 1);
  // A diamond inscribed in the square covers half of it.
  near(
    polygonIou(rect(0, 0, 10, 10), [
      [5, 0],
      [10, 5],
      [5, 10],
      [0, 5],
    ]),
    0.5,
  );
  near(
    polygonIou(rect(0, 0, 10, 10), [
      [0, 0],
      [1, 1],
      [2, 2],
      [3, 3],
    ]),
    0,
  );
  near(polygonIou([], rect(0, 0, 1, 1)), 0);
});

test('word spotting: IoU ≥ 0.5 and case-insensitive text; do-not-care regions count neither way', () => {
  const truth = [
    { text: 'HARBOUR', polygon: rect(0, 0, 100, 20) },
    { text: 'SKIN!', polygon: rect(0, 50, 100, 20) },
    { text: '###', polygon: rect(0, 100, 100, 20), ignore: true },
  ];
  const c = wordSpottingCount(
    [
      { text: 'harbour', polygon: rect(5, 0, 100, 20) }, // hit
      { text: 'Skin', polygon: rect(0, 50, 80, 20) }, // hit: punctuation stripped, IoU 0.8
      { text: '!', polygon: rect(80, 50, 20, 20) }, // punctuation only: not counted
      { text: 'noise', polygon: rect(10, 100, 80, 20) }, // inside a do-not-care region
      { text: 'HARBOUR', polygon: rect(0, 0, 100, 20) }, // duplicate: the truth word is taken
      { text: 'other', polygon: rect(500, 500, 10, 10) }, // false positive
    ],
    truth,
  );
  assert.deepEqual(c, { matched: 2, predicted: 4, expected: 2 });
  assert.deepEqual(wordSpottingCount([{ text: 'HARBOUR', polygon: rect(60, 0, 100, 20) }], truth).matched, 0);
  assert.deepEqual(wordSpottingCount([], []), { matched: 0, predicted: 0, expected: 0 });
});

test('bag of words: multiset matching, case-folded, token ends stripped, micro-averaged F1', () => {
  const a = bagOfWordsCount(wordTokens('TOTAL: 9.00 total\nCash -- '), wordTokens('Total 9.00 CASH paid'));
  assert.deepEqual(a, { matched: 3, predicted: 4, expected: 4 });
  near(f1(a), 0.75);
  near(f1(sumCounts([a, { matched: 0, predicted: 0, expected: 4 }])), (2 * 0.75 * 0.375) / 1.125);
  assert.equal(f1({ matched: 0, predicted: 0, expected: 0 }), 0);
});

test('CER: code points, whitespace folding, ASCII quotes, Arabic normalisation', () => {
  assert.equal(editDistance('kitten', 'sitting'), 3);
  assert.equal(editDistance('', 'abc'), 3);
  assert.equal(editDistance('😀a', '😀b'), 1);
  assert.equal(normalizeForCer("they said ``slow\n\n and steady''", 'en'), 'they said "slow and steady"');
  assert.equal(normalizeForCer('الإجابةُ  إلى', 'ar'), 'الاجابة الي');
  // Line-end hyphens as the NZZ truth (¬) and the print (⸗, = at the end) write them; long s is s.
  assert.equal(normalizeForCer('Kas¬\nse Wiſſen⸗\nschaft a=\nb x = y', 'de'), 'Kas- se Wissen- schaft a- b x = y');
  near(oneMinusCer([cerCount('abcd', 'abce'), cerCount('', 'xxxx')]), 1 - 5 / 8);
  assert.equal(oneMinusCer([cerCount('a long wrong output', 'x')]), 0);
  assert.equal(spottingText('"Hello,"'), 'hello');
});

test('Tesseract TSV: level-5 rows become words with boxes, lines joined in order', () => {
  const tsv = [
    'level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext',
    '4\t1\t1\t1\t1\t0\t10\t10\t100\t20\t-1\t',
    '5\t1\t1\t1\t1\t1\t10\t10\t40\t20\t96\tHello',
    '5\t1\t1\t1\t1\t2\t60\t10\t50\t20\t95\tworld',
    '5\t1\t1\t1\t2\t1\t10\t40\t30\t20\t90\t  ',
    '5\t1\t2\t1\t1\t1\t10\t80\t30\t20\t91\tBye',
    'garbage',
  ].join('\n');
  const r = parseTesseractTsv(tsv);
  assert.equal(r.text, 'Hello world\nBye\n');
  assert.deepEqual(r.words[1], {
    text: 'world',
    polygon: [
      [60, 10],
      [110, 10],
      [110, 30],
      [60, 30],
    ],
  });
  assert.deepEqual(parseTesseractTsv(''), { text: '', words: [] });
});
