import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { lineReading as reading } from '../../../test/helpers/line-reading.ts';
import { loadEnglishLexicon, type EnglishLexicon } from './english-lexicon.ts';
import { joinSplitWords, piecesOfOneWord, twoWordCut } from './join-split-words.ts';

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
  // Two words with the space in the wrong place: the space moves to where it belongs.
  assert.equal(joinSplitWords(reading('inpu tt ax claims'), lexicon).text, 'input tax claims');
  assert.equal(joinSplitWords(reading('THANKY OU'), lexicon).text, 'THANK YOU');
});

test('a bracket, quote or colon around the pieces does not keep them apart', () => {
  assert.equal(joinSplitWords(reading('Price (Exc luding delivery): 5.00'), lexicon).text, 'Price (Excluding delivery): 5.00');
  assert.equal(joinSplitWords(reading('"Tot al:" 12'), lexicon).text, '"Total:" 12');
  assert.equal(joinSplitWords(reading('(inpu tt ax)'), lexicon).text, '(input tax)');
  assert.deepEqual(piecesOfOneWord(['(inpu', 'tt', 'ax)'], lexicon), { pieces: 3, cut: 6 });
  // Marks between the pieces still part them.
  assert.equal(joinSplitWords(reading('Exc, luding'), lexicon).text, 'Exc, luding');
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
  assert.deepEqual(piecesOfOneWord(['a', 'd', 'jus', 'tment', 'Note'], lexicon), { pieces: 4 });
  assert.deepEqual(piecesOfOneWord(['TAX', 'INVOICE'], lexicon), { pieces: 1 });
  assert.deepEqual(piecesOfOneWord(['Invo', 'ice'], lexicon), { pieces: 2 });
  assert.deepEqual(piecesOfOneWord(['inpu', 'tt', 'ax'], lexicon), { pieces: 3, cut: 5 });
  assert.deepEqual(piecesOfOneWord([], lexicon), { pieces: 1 });
});

test('run-together words on their own stay as read: a cut needs a misplaced space to go by', () => {
  for (const text of [
    'PLEASE KEEPTHIS RECEIPT',
    'REFUNDABLE',
    'Newport',
    'iPhone',
    'SB01AB2C',
    'GST@6%',
    '12345678',
    'MADEIN',
    '你好世界你好世界',
  ]) {
    assert.equal(joinSplitWords(reading(text), lexicon).text, text, text);
  }
  // Two cuts make two words ("pen island" / "penis land"): ambiguous, left alone.
  assert.equal(twoWordCut('PENISLAND', lexicon), undefined);
  assert.equal(twoWordCut('INPUTTAX', lexicon), 5);
  assert.equal(twoWordCut('Newport', lexicon), undefined);
});

test('a moved space sits between its two characters; every other position is kept', () => {
  const input = reading('inpu tt ax');
  const out = joinSplitWords(input, lexicon);
  assert.equal(out.text, 'input tax');
  const letters = input.chars.filter((c) => c.text !== ' ');
  assert.deepEqual(
    out.chars.filter((c) => c.text !== ' '),
    letters,
  );
  const space = out.chars[5];
  assert.equal(space.x0, space.x1);
  assert.ok(space.x0 > letters[4].x1 - 1e-9 && space.x0 < letters[5].x0 + 1e-9);
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
