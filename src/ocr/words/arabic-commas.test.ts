import assert from 'node:assert/strict';
import { test } from 'node:test';
import { arabicCommas } from './arabic-commas.ts';

function read(text: string, language?: string) {
  const chars = Array.from(text).map((t, i, all) => ({ text: t, x0: 1 - (i + 1) / all.length, x1: 1 - i / all.length, confidence: 0.9 }));
  return arabicCommas({ text, confidence: 0.9, chars, ...(language ? { language } : {}) });
}

test("the marks Tesseract's Arabic model reads for a comma become the comma", () => {
  assert.equal(read('ذهب الولد إلى المدرسة ؛ ثم عاد', 'ar').text, 'ذهب الولد إلى المدرسة ، ثم عاد');
  assert.equal(read('كتب الرسالة» وأرسلها» ونام', 'ar').text, 'كتب الرسالة، وأرسلها، ونام');
});

test('a hamza ending a word after ha or ta marbuta is the comma; after other letters it is a letter', () => {
  assert.equal(read('قرأ الكتابهء ثم نام', 'ar').text, 'قرأ الكتابه، ثم نام');
  assert.equal(read('في المدرسةء وفي البيت', 'ar').text, 'في المدرسة، وفي البيت');
  for (const text of ['هذا شيء جميل', 'جزء من الكتاب', 'هءلا']) assert.equal(read(text, 'ar').text, text);
});

test('a closing guillemet after an opening one stays a quotation mark', () => {
  assert.equal(read('قال « نعم » ثم سكت» وخرج', 'ar').text, 'قال « نعم » ثم سكت، وخرج');
});

test('positions and confidences are kept; other languages and unmarked lines are left alone', () => {
  const line = read('نعم ؛ لا', 'ar');
  assert.deepEqual(
    line.chars.map((c) => [c.x0, c.x1, c.confidence]),
    read('نعم ؛ لا').chars.map((c) => [c.x0, c.x1, c.confidence]),
  );
  for (const [text, language] of [
    ['نعم ؛ لا', undefined],
    ['«Oui» ; non', 'fr'],
    ['a » b', 'en'],
  ]) {
    const input = read(text as string, language);
    assert.equal(input.text, text);
  }
  const plain = { text: 'نعم لا', confidence: 0.9, chars: [], language: 'ar' };
  assert.equal(arabicCommas(plain), plain);
});
