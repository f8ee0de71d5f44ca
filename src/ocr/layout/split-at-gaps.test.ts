import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RecognizedLine } from '../recognize/recognized-line.ts';
import { splitAtWideGaps } from './split-at-gaps.ts';

/** A 30-px-tall line from x = 0 to `width`, its words placed at the given pixel ranges (letters evenly inside). */
function lineOf(words: Array<[string, number, number]>, width: number): RecognizedLine {
  const chars = words.flatMap(([text, a, b], w) => {
    const letters = Array.from(text).map((t, i, all) => ({
      text: t,
      x0: (a + ((b - a) * i) / all.length) / width,
      x1: (a + ((b - a) * (i + 1)) / all.length) / width,
      confidence: 0.9,
    }));
    return w < words.length - 1 ? [...letters, { text: ' ', x0: b / width, x1: b / width, confidence: 0.9 }] : letters;
  });
  return {
    box: [
      { x: 0, y: 100 },
      { x: width, y: 100 },
      { x: width, y: 130 },
      { x: 0, y: 130 },
    ],
    text: chars.map((c) => c.text).join(''),
    confidence: 0.9,
    chars,
  };
}

test('a line the detector ran across a column gutter is cut there, each piece with its own box and characters', () => {
  // Word spaces of 8 px, then a 30-px gutter (1 line height): the end of one column, the start of the next.
  const line = lineOf(
    [
      ['end', 0, 36],
      ['of', 44, 68],
      ['it', 76, 100],
      ['next', 130, 178],
      ['one', 186, 222],
    ],
    222,
  );
  const pieces = splitAtWideGaps(line);
  assert.deepEqual(
    pieces.map((p) => p.text),
    ['end of it', 'next one'],
  );
  assert.deepEqual(
    pieces[0].box.map((p) => Math.round(p.x)),
    [0, 100, 100, 0],
  );
  assert.deepEqual(
    pieces[1].box.map((p) => Math.round(p.x)),
    [130, 222, 222, 130],
  );
  // Characters are fractions of their own piece now.
  assert.equal(pieces[1].chars[0].x0, 0);
  assert.ok(Math.abs(pieces[1].chars[pieces[1].chars.length - 1].x1 - 1) < 1e-9);
  assert.ok(pieces.every((p) => p.chars.every((c) => c.x0 >= 0 && c.x1 <= 1 + 1e-9)));
});

test('lines whose gaps are all alike, or all narrow, stay whole', () => {
  // Loosely justified: every space 20 px (two thirds of the line height), none wider than the others.
  const justified = lineOf(
    [
      ['wide', 0, 48],
      ['spaces', 68, 140],
      ['all', 160, 196],
      ['alike', 216, 276],
    ],
    276,
  );
  assert.deepEqual(splitAtWideGaps(justified), [justified]);
  const tight = lineOf(
    [
      ['plain', 0, 60],
      ['text', 68, 116],
      ['here', 124, 172],
    ],
    172,
  );
  assert.deepEqual(splitAtWideGaps(tight), [tight]);
  const empty: RecognizedLine = { ...tight, text: '', chars: [] };
  assert.deepEqual(splitAtWideGaps(empty), [empty]);
});

test('right-to-left lines stay whole', () => {
  const arabic = lineOf(
    [
      ['إلى', 0, 36],
      ['السوق', 44, 116],
      ['والمكتبة', 160, 256],
    ],
    256,
  );
  assert.deepEqual(splitAtWideGaps(arabic), [arabic]);
});
