import { test, type TestContext } from 'node:test';
import type { LineReading } from '../recognizer.ts';
import { baseLetter, fuseDiacritics } from './fuse-diacritics.ts';

/** A reading with evenly spread characters. */
function reading(text: string, confidence: number): LineReading {
  const chars = [...text].map((ch, i, all) => ({ text: ch, x0: i / all.length, x1: (i + 1) / all.length, confidence }));
  return { text, confidence, chars };
}

test('base letters drop marks and case', (t: TestContext) => {
  t.assert.deepEqual(['Ễ', 'đ', 'Đ', 'ñ', 'ß', 'A'].map(baseLetter), ['e', 'd', 'd', 'n', 'ß', 'a']);
});

test("PP-OCR's letters get Tesseract's marks where the base letters align", (t: TestContext) => {
  const fused = fuseDiacritics(reading('NGHIEM', 0.94), reading('NgHIÊM', 0.91));
  t.assert.equal(fused.text, 'NGHIÊM');
  t.assert.equal(fused.chars.length, 6);
  t.assert.equal(fused.chars[4].x0, 4 / 6);
  // Tesseract misread the first letters: PP keeps them, the aligned ones still get their marks.
  t.assert.equal(fuseDiacritics(reading('DANH', 0.96), reading('ĐÁNK', 0.8)).text, 'ĐÁNH');
});

test('an empty reading on either side yields the other', (t: TestContext) => {
  t.assert.equal(fuseDiacritics(reading('BINH', 1), reading('', 0)).text, 'BINH');
  t.assert.equal(fuseDiacritics(reading('', 0), reading('Bình', 0.9)).text, 'Bình');
});

test('a confident Tesseract agreeing with PP-OCR wins whole, with its own letters and spaces', (t: TestContext) => {
  t.assert.equal(fuseDiacritics(reading('Voix ambigue', 0.98), reading('Voix ambiguë', 0.99)).text, 'Voix ambiguë');
  t.assert.equal(fuseDiacritics(reading('Quelfezsghembo', 0.99), reading('Quel fez sghembo', 0.99)).text, 'Quel fez sghembo');
});

test('spaces only Tesseract saw are added between PP-OCR letters', (t: TestContext) => {
  const fused = fuseDiacritics(reading('coeurqui', 0.98), reading('cœur qul', 0.7));
  t.assert.equal(fused.text, 'coeur qui');
  const space = fused.chars[5];
  t.assert.equal(space.text, ' ');
  t.assert.ok(space.x0 <= space.x1);
});
