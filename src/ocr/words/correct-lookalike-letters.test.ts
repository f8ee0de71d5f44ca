import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { lineReading as reading } from '../../../test/helpers/line-reading.ts';
import { correctLookalikeLetters, correctLookalikeWord } from './correct-lookalike-letters.ts';
import { loadEnglishLexicon, type EnglishLexicon } from './english-lexicon.ts';

let lexicon: EnglishLexicon;
before(async () => {
  lexicon = await loadEnglishLexicon();
});

test('worn print: a lost i-dot (l) and a faded e-bar (o) are put back when that makes one common word', () => {
  const cases: Array<[string, string]> = [
    ['Annual Garden Society Moeting', 'Annual Garden Society Meeting'],
    ['Vlsltors dlvlded into 5 teams:', 'Visitors divided into 5 teams:'],
    ['Duration: Examlnation 25 minutes', 'Duration: Examination 25 minutes'],
    ['BUDGOT (revlslon)', 'BUDGET (revision)'],
    ['UNIT AHOUNT VAT Sunnary', 'UNIT AMOUNT VAT Summary'],
  ];
  for (const [input, expected] of cases) assert.equal(correctLookalikeLetters(reading(input), lexicon).text, expected, input);
});

test('words, names, foreign words, short words, mixed case and codes stay as read', () => {
  for (const word of ['meeting', 'Oakridge', 'DENTAI', 'Hiro', 'GROOT', 'Hon', 'Ned', 'Calle', 'iPhone', 'QX07KW', 'LLLLLL', 'ooooooo']) {
    assert.equal(correctLookalikeWord(word, lexicon), word, word);
  }
});

test("typeset ligatures read as a lone f are spelled out, inside the f's character", () => {
  const cases: Array<[string, string]> = [
    ['the efcient use of the benefts', 'the efficient use of the benefits'],
    ['a fnal ofer', 'a final offer'],
    ['Staf infuence', 'Staff influence'],
  ];
  for (const [input, expected] of cases) assert.equal(correctLookalikeLetters(reading(input), lexicon).text, expected, input);
  const out = correctLookalikeLetters(reading('fnal'), lexicon);
  assert.deepEqual(
    out.chars.map((c) => c.text),
    ['fi', 'n', 'a', 'l'],
  );
  // Ligatures are lower case; three letters are a code more often than a word.
  for (const word of ['FNAL', 'FUX', 'fux', 'Fred', 'fjord']) assert.equal(correctLookalikeWord(word, lexicon), word, word);
});

/** `text` read with the recognizer's runner-up `alternatives[i]` (text and probability) at character `i`. */
function withAlternatives(text: string, alternatives: Record<number, [string, number]>) {
  const r = reading(text);
  return {
    ...r,
    chars: r.chars.map((c, i) =>
      alternatives[i] ? { ...c, alternative: { text: alternatives[i][0], confidence: alternatives[i][1] } } : c,
    ),
  };
}

test('a letter the recognizer found nearly as likely is read instead when that makes one common word', () => {
  // Small print: D read as O, its ascender lost; the recognizer's runner-up there was D (in either case).
  assert.equal(correctLookalikeLetters(withAlternatives('CONFIRMEO', { 8: ['D', 0.2] }), lexicon).text, 'CONFIRMED');
  assert.equal(correctLookalikeLetters(withAlternatives('CONFIRMEO', { 8: ['d', 0.2] }), lexicon).text, 'CONFIRMED');
  assert.equal(correctLookalikeLetters(withAlternatives('the descreption', { 9: ['i', 0.1] }), lexicon).text, 'the description');
  // A runner-up and a fixed look-alike (l for i) in one word.
  assert.equal(correctLookalikeLetters(withAlternatives('descreptlon', { 5: ['i', 0.1] }), lexicon).text, 'description');
  // Not when the runner-up was unlikely, nor for short words, nor for known words.
  assert.equal(correctLookalikeLetters(withAlternatives('CONFIRMEO', { 8: ['D', 0.01] }), lexicon).text, 'CONFIRMEO');
  assert.equal(correctLookalikeLetters(withAlternatives('ANO', { 2: ['D', 0.4] }), lexicon).text, 'ANO');
  assert.equal(correctLookalikeLetters(withAlternatives('bold', { 1: ['a', 0.4] }), lexicon).text, 'bold');
});

test('only the swapped characters change; positions and confidences stay', () => {
  const input = reading('Moeting');
  const out = correctLookalikeLetters(input, lexicon);
  assert.equal(out.text, 'Meeting');
  out.chars.forEach((c, i) => {
    assert.equal(c.x0, input.chars[i].x0);
    assert.equal(c.confidence, input.chars[i].confidence);
  });
});

test('hostile input: empty, spaces, long runs of swappable letters', () => {
  assert.equal(correctLookalikeLetters(reading(''), lexicon).text, '');
  assert.equal(correctLookalikeLetters(reading('   '), lexicon).text, '   ');
  const long = 'lo'.repeat(5000);
  assert.equal(correctLookalikeWord(long, lexicon), long);
});
