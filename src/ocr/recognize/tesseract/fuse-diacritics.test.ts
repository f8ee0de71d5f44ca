import { test, type TestContext } from 'node:test';
import type { LineReading } from '../recognizer.ts';
import { baseLetter, fuseDiacritics, letterAgreement } from './fuse-diacritics.ts';

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

test("a word in capitals keeps its same-shape letters in capitals, whoever's case was taken", (t: TestContext) => {
  // Tesseract's letters are taken (it agrees and is sure); it set the o and s as small letters.
  t.assert.equal(fuseDiacritics(reading('LONG', 0.99), reading('LòNG', 0.95)).text, 'LÒNG');
  t.assert.equal(fuseDiacritics(reading('SONG', 0.99), reading('sốNG', 0.95)).text, 'SỐNG');
  // Tesseract taken whole (PP-OCR unsure): the same.
  t.assert.equal(fuseDiacritics(reading('PH0', 0.5), reading('PHổ', 0.9)).text, 'PHỔ');
  // Words not in capitals stay as read.
  t.assert.equal(fuseDiacritics(reading('Song', 0.99), reading('Sống', 0.95)).text, 'Sống');
  t.assert.equal(fuseDiacritics(reading('iPhone', 0.99), reading('iPhone', 0.95)).text, 'iPhone');
});

test('letter agreement counts the letters that align on the same base letter', (t: TestContext) => {
  t.assert.equal(letterAgreement(reading('DUNG', 0.99), reading('DỤNG', 0.9)), 1);
  t.assert.equal(letterAgreement(reading('DUNG', 0.99), reading('', 0)), 0);
  t.assert.equal(letterAgreement(reading('CHUA', 0.99), reading('pl', 0.9)), 0);
  t.assert.equal(letterAgreement(reading('TAO', 0.99), reading('TẠ0', 0.9)), 2 / 3);
});
