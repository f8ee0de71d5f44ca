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
    ['p lease sign the applic ation form', 'please sign the application form'],
    ['STRAWB ERRY 4.15', 'STRAWBERRY 4.15'],
    ['R e imbur sement Form', 'Reimbursement Form'],
    ['U nit 7, Calle Verdan', 'Unit 7, Calle Verdan'],
    ['KORVEL TRADIN G PTY LTD', 'KORVEL TRADING PTY LTD'],
    ['Gift Vouc her', 'Gift Voucher'],
    ['custo mer feedback', 'customer feedback'],
  ];
  for (const [input, expected] of cases) assert.equal(joinSplitWords(reading(input), lexicon).text, expected, input);
  // Two words with the space in the wrong place: the space moves to where it belongs.
  assert.equal(joinSplitWords(reading('pape rc up lids'), lexicon).text, 'paper cup lids');
  assert.equal(joinSplitWords(reading('GOODL UCK'), lexicon).text, 'GOOD LUCK');
});

test('a bracket, quote or colon around the pieces does not keep them apart', () => {
  assert.equal(joinSplitWords(reading('Price (Deliv ery extra): 5.00'), lexicon).text, 'Price (Delivery extra): 5.00');
  assert.equal(joinSplitWords(reading('"Tot al:" 12'), lexicon).text, '"Total:" 12');
  assert.equal(joinSplitWords(reading('(pape rc up)'), lexicon).text, '(paper cup)');
  assert.deepEqual(piecesOfOneWord(['(pape', 'rc', 'up)'], lexicon), { pieces: 3, cut: 6 });
  // Marks between the pieces still part them.
  assert.equal(joinSplitWords(reading('Deliv, ery'), lexicon).text, 'Deliv, ery');
});

test('real word pairs, codes, names, numbers and mixed case stay apart', () => {
  for (const text of [
    'SALE PRICE',
    'car pet',
    'a round',
    'PTY LTD',
    'S R',
    'A B C',
    'RM 7.00',
    'Mr X',
    'Calle Verdan',
    'iPh one',
    'CHI T',
    'x 2',
    '你好 世界',
  ]) {
    assert.equal(joinSplitWords(reading(text), lexicon).text, text, text);
  }
});

test('pieces are counted from the first: the longest join that makes a word wins', () => {
  assert.deepEqual(piecesOfOneWord(['r', 'e', 'imbur', 'sement', 'Form'], lexicon), { pieces: 4 });
  assert.deepEqual(piecesOfOneWord(['SALE', 'PRICE'], lexicon), { pieces: 1 });
  assert.deepEqual(piecesOfOneWord(['Vouc', 'her'], lexicon), { pieces: 2 });
  assert.deepEqual(piecesOfOneWord(['pape', 'rc', 'up'], lexicon), { pieces: 3, cut: 5 });
  assert.deepEqual(piecesOfOneWord([], lexicon), { pieces: 1 });
});

test('run-together words on their own stay as read: a cut needs a misplaced space to go by', () => {
  for (const text of [
    'PLEASE SIGNHERE TODAY',
    'REFILLABLE',
    'Oakridge',
    'iPhone',
    'QX47ZK9T',
    'VAT@8%',
    '12345678',
    'MADEIN',
    '你好世界你好世界',
  ]) {
    assert.equal(joinSplitWords(reading(text), lexicon).text, text, text);
  }
  // Two cuts make two words ("pen island" / "penis land"): ambiguous, left alone.
  assert.equal(twoWordCut('PENISLAND', lexicon), undefined);
  assert.equal(twoWordCut('PAPERCUP', lexicon), 5);
  assert.equal(twoWordCut('Oakridge', lexicon), undefined);
});

test('a moved space sits between its two characters; every other position is kept', () => {
  const input = reading('pape rc up');
  const out = joinSplitWords(input, lexicon);
  assert.equal(out.text, 'paper cup');
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
  const input = reading('marmal ade');
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
  const long = Array.from({ length: 2000 }, () => 'p lease').join(' ');
  assert.equal(joinSplitWords(reading(long), lexicon).text, Array.from({ length: 2000 }, () => 'please').join(' '));
});
