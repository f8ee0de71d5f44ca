import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { lineReading as reading } from '../../../test/helpers/line-reading.ts';
import { loadEnglishLexicon, type EnglishLexicon } from './english-lexicon.ts';
import { joinSplitWords, piecesOfOneWord } from './join-split-words.ts';
import { splitJoinedWords } from './split-joined-words.ts';

let lexicon: EnglishLexicon;
before(async () => {
  lexicon = await loadEnglishLexicon();
});

test('words split inside by letter-spaced print are joined again (SROIE receipts, FUNSD forms)', () => {
  const cases: Array<[string, string]> = [
    ['r equired to make nec essary adjustments', 'required to make necessary adjustments'],
    ['WHOL EMEAL 2.78', 'WHOLEMEAL 2.78'],
    ['A d jus tment Note', 'Adjustment Note'],
    ['L ot 3, Jalan Pelabur', 'Lot 3, Jalan Pelabur'],
    ['SANYU SUPPL Y SDN BHD', 'SANYU SUPPLY SDN BHD'],
    ['Tax Invo ice', 'Tax Invoice'],
    ['consu mer perceptions', 'consumer perceptions'],
  ];
  for (const [input, expected] of cases) assert.equal(joinSplitWords(reading(input), lexicon).text, expected, input);
  // Two words with the space in the wrong place are joined; the split step puts the space back where it belongs.
  assert.equal(joinSplitWords(reading('inpu tt ax claims'), lexicon).text, 'inputtax claims');
  assert.equal(splitJoinedWords(joinSplitWords(reading('inpu tt ax claims'), lexicon), lexicon).text, 'input tax claims');
});

test('real word pairs, codes, names, numbers and mixed case stay apart', () => {
  for (const text of [
    'TAX INVOICE',
    'in voice',
    'a round',
    'SDN BHD',
    'S R',
    'A B C',
    'RM 7.00',
    'Mr X',
    'Jalan Pelabur',
    'iPh one',
    'CHI T',
    'x 2',
    '你好 世界',
  ]) {
    assert.equal(joinSplitWords(reading(text), lexicon).text, text, text);
  }
});

test('pieces are counted from the first: the longest join that makes a word wins', () => {
  assert.equal(piecesOfOneWord(['a', 'd', 'jus', 'tment', 'Note'], lexicon), 4);
  assert.equal(piecesOfOneWord(['TAX', 'INVOICE'], lexicon), 1);
  assert.equal(piecesOfOneWord(['Invo', 'ice'], lexicon), 2);
  assert.equal(piecesOfOneWord([], lexicon), 1);
});

test('positions are kept: only the spaces between joined pieces go', () => {
  const input = reading('whol emeal');
  const out = joinSplitWords(input, lexicon);
  assert.equal(out.chars.length, input.chars.length - 1);
  assert.deepEqual(
    out.chars,
    input.chars.filter((c) => c.text !== ' '),
  );
});

test('hostile input: empty, spaces only, very long lines of pieces', () => {
  assert.equal(joinSplitWords(reading(''), lexicon).text, '');
  assert.equal(joinSplitWords(reading('     '), lexicon).text, '     ');
  const long = Array.from({ length: 2000 }, () => 'r equired').join(' ');
  assert.equal(joinSplitWords(reading(long), lexicon).text, Array.from({ length: 2000 }, () => 'required').join(' '));
});
