import assert from 'node:assert/strict';
import { test } from 'node:test';
import { dropDoubtfulWords, dropDoubtfulWordsOfPhoto } from './drop-doubtful-words.ts';
import type { RecognizedLine } from '../recognize/recognized-line.ts';

function line(text: string, confidences: number[]): RecognizedLine {
  const chars = Array.from(text).map((t, i, all) => ({
    text: t,
    x0: i / all.length,
    x1: (i + 0.9) / all.length,
    confidence: confidences[i],
  }));
  const box = [
    { x: 0, y: 0 },
    { x: 100, y: 0 },
    { x: 100, y: 10 },
    { x: 0, y: 10 },
  ] as RecognizedLine['box'];
  return { box, text, confidence: confidences.reduce((a, b) => a + b, 0) / confidences.length, chars };
}

test('confident lines are returned as they are', () => {
  const l = line('SALE NOW', [0.9, 0.9, 0.9, 0.9, 1, 0.8, 0.9, 0.9]);
  assert.equal(dropDoubtfulWords(l), l);
});

test('a doubtful word goes with one neighbouring space; the others keep their positions', () => {
  const middle = dropDoubtfulWords(line('AB xq CD', [1, 1, 1, 0.3, 0.4, 1, 1, 1]))!;
  assert.equal(middle.text, 'AB CD');
  assert.deepEqual(
    middle.chars.map((c) => c.x0),
    [0, 1 / 8, 2 / 8, 6 / 8, 7 / 8],
  );
  assert.equal(dropDoubtfulWords(line('xq AB', [0.3, 0.4, 1, 1, 1]))!.text, 'AB');
  assert.equal(dropDoubtfulWords(line('AB xq', [1, 1, 1, 0.3, 0.4]))!.text, 'AB');
  assert.ok(Math.abs(dropDoubtfulWords(line('AB xq', [1, 0.8, 1, 0.3, 0.4]))!.confidence - 0.9) < 1e-9);
});

test('nothing left gives undefined; hostile confidences and empty chars do not throw', () => {
  assert.equal(dropDoubtfulWords(line('xq', [0.2, 0.3])), undefined);
  assert.equal(dropDoubtfulWords(line('ab cd', [NaN, NaN, 1, NaN, NaN])), undefined);
  const bare: RecognizedLine = { ...line('A', [1]), chars: [], confidence: 0.9 };
  assert.equal(dropDoubtfulWords(bare), bare);
  assert.equal(dropDoubtfulWords({ ...bare, confidence: 0.1 }), undefined);
  const long = line(
    'w '.repeat(5000).trim(),
    Array.from({ length: 9999 }, (_, i) => (i % 4 === 0 ? 0.1 : 1)),
  );
  assert.equal(dropDoubtfulWords(long)!.text.replace(/ /g, '').length, 2500);
});

test('a photo keeps its confident words; a photo whose every word is doubtful keeps its best line', () => {
  const sign = line('SALE', [0.9, 0.9, 0.9, 0.9]);
  const texture = line('xq', [0.2, 0.3]);
  assert.deepEqual(dropDoubtfulWordsOfPhoto([texture, sign]), [undefined, sign]);
  const blurredPlate = line('AB 123', [0.8, 0.8, 0.8, 0.7, 0.8, 0.8]);
  assert.deepEqual(dropDoubtfulWordsOfPhoto([texture, blurredPlate]), [undefined, blurredPlate]);
  assert.deepEqual(dropDoubtfulWordsOfPhoto([]), []);
});
