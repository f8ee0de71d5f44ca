import assert from 'node:assert/strict';
import { test } from 'node:test';
import { restoreVietnameseMarks } from './vietnamese-marks.ts';

const ENGLISH = new Set(['diet', 'set', 'hot']);

function read(text: string, language: string | null = 'vi') {
  const chars = Array.from(text).map((t, i, all) => ({ text: t, x0: i / all.length, x1: (i + 1) / all.length, confidence: 0.8 }));
  return restoreVietnameseMarks({ text, confidence: 0.8, chars, ...(language ? { language } : {}) }, ENGLISH);
}

test('a diphthong before a final gets the mark Vietnamese always writes on it', () => {
  assert.equal(read('TIEN').text, 'TIÊN');
  assert.equal(read('Chuyen').text, 'Chuyên');
  assert.equal(read('THUONG').text, 'THƯƠNG');
  assert.equal(read('tieu').text, 'tiêu');
  assert.equal(read('BENH').text, 'BÊNH');
});

test('a checked syllable read without a tone takes sắc, on the vowel spelling puts it on', () => {
  assert.equal(read('PHAT').text, 'PHÁT');
  assert.equal(read('NUOC').text, 'NƯỚC');
  assert.equal(read('Toc').text, 'Tóc');
});

test("a tone already read stays, moved to the diphthong's second vowel", () => {
  assert.equal(read('TRUÒNG').text, 'TRƯỜNG');
  assert.equal(read('PHÙONG').text, 'PHƯỜNG');
  // A checked syllable with huyền is wrong too, but sắc or nặng is a guess: it stays as read.
  assert.equal(read('BÀC').text, 'BÀC');
});

test('words that follow the rules, English words, non-syllables and other languages are left alone', () => {
  for (const text of ['Việt Nam', 'KHÁM', 'MẮT', 'người', 'DIET', 'SET', 'SHOP', 'WIFI', 'COFFEE', '20.000d', 'gin', 'BANH'])
    assert.equal(read(text).text, text, text);
  assert.equal(read('TIEN', 'en').text, 'TIEN');
  assert.equal(read('TIEN', null).text, 'TIEN');
});

test('punctuation around a word stays and positions and confidences are kept', () => {
  const line = read('DIEN, PHAT.');
  assert.equal(line.text, 'DIÊN, PHÁT.');
  assert.deepEqual(
    line.chars.map((c) => [c.x0, c.x1, c.confidence]),
    read('DIEN, PHAT.', 'en').chars.map((c) => [c.x0, c.x1, c.confidence]),
  );
});
