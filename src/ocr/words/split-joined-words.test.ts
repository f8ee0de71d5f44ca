import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { lineReading as reading } from '../../../test/helpers/line-reading.ts';
import { loadEnglishLexicon, type EnglishLexicon } from './english-lexicon.ts';
import { joinedWordCut, splitJoinedWords } from './split-joined-words.ts';

let lexicon: EnglishLexicon;
before(async () => {
  lexicon = await loadEnglishLexicon();
});

test('joined words on receipts are cut where exactly one cut makes two English words', () => {
  assert.equal(splitJoinedWords(reading('PLEASE KEEPTHIS RECEIPT'), lexicon).text, 'PLEASE KEEP THIS RECEIPT');
  assert.equal(splitJoinedWords(reading('SANYU STATIONERYSHOP'), lexicon).text, 'SANYU STATIONERY SHOP');
  assert.equal(splitJoinedWords(reading('thankyou foryour visit'), lexicon).text, 'thank you for your visit');
});

test('words, names, codes, numbers and short runs stay as read', () => {
  for (const text of [
    'REFUNDABLE',
    'Accession',
    'Newport',
    'Dataran',
    'iPhone',
    'SB01AB2C',
    'INVOICE',
    'GST@6%',
    '12345678',
    'TOTAL',
    'MADEIN',
    '你好世界你好世界',
  ]) {
    assert.equal(splitJoinedWords(reading(text), lexicon).text, text, text);
  }
});

test('the inserted space sits between the two characters and keeps every position', () => {
  const out = splitJoinedWords(reading('KEEPTHIS'), lexicon);
  assert.equal(out.chars.length, 9);
  const space = out.chars[4];
  assert.equal(space.text, ' ');
  assert.ok(Math.abs(space.x0 - 0.5) < 1e-9 && space.x0 === space.x1);
  assert.deepEqual(
    out.chars.filter((c) => c.text !== ' '),
    reading('KEEPTHIS').chars,
  );
});

test('hostile input: empty, whitespace-only, very long and ambiguous runs', () => {
  assert.equal(splitJoinedWords(reading(''), lexicon).text, '');
  assert.equal(splitJoinedWords(reading('       '), lexicon).text, '       ');
  const long = 'A'.repeat(5000);
  assert.equal(splitJoinedWords(reading(long), lexicon).text, long);
  // Two cuts make two words ("pen island" / "penis land"): ambiguous, left alone.
  assert.equal(joinedWordCut('PENISLAND', lexicon), undefined);
});
