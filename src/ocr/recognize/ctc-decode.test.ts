import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bestClasses, ctcDecode, PHOTO_HESITANT_SPACE } from './ctc-decode.ts';

const DICT = ['', 'a', 'b', 'c', ' '];

/** One-hot-ish softmax rows reduced to their best class: `path` lists the winning class per timestep. */
function probs(path: number[], p = 0.9): Float32Array {
  const out = new Float32Array(path.length * DICT.length).fill((1 - p) / (DICT.length - 1));
  path.forEach((c, t) => (out[t * DICT.length + c] = p));
  return bestClasses(out, path.length, DICT.length);
}

test('repeats merge, blanks separate, positions come from timesteps', () => {
  // a a _ b _ _ b c   →  "abbc"
  const r = ctcDecode(probs([1, 1, 0, 2, 0, 0, 2, 3]), 8, DICT);
  assert.equal(r.text, 'abbc');
  assert.equal(r.chars.length, 4);
  assert.ok(Math.abs(r.confidence - 0.9) < 1e-6);
  for (let i = 1; i < r.chars.length; i++) {
    assert.ok(r.chars[i].x0 >= r.chars[i - 1].x0, 'characters are in order');
    assert.ok(Math.abs(r.chars[i].x0 - r.chars[i - 1].x1) < 1e-9, 'neighbours share a boundary');
  }
  assert.ok(r.chars[0].x0 >= 0 && r.chars[3].x1 <= 1);
  // "a" ran over timesteps 0–1 of 8: its centre is at 1/8.
  assert.ok(r.chars[0].x0 < 1 / 8 && r.chars[0].x1 > 1 / 8);
});

test('positions are fractions of the line, not of the padded tensor', () => {
  // The line fills the first half of the tensor; "c" at timestep 3 of 8 sits at 7/8 of the line.
  const r = ctcDecode(probs([1, 0, 0, 3, 0, 0, 0, 0]), 8, DICT, 0.5);
  assert.equal(r.text, 'ac');
  const c = r.chars[1];
  assert.ok(c.x0 < 7 / 8 && c.x1 > 7 / 8 && c.x1 <= 1, JSON.stringify(c));
});

test('spaces: trimmed at the ends and collapsed', () => {
  assert.equal(ctcDecode(probs([4, 1, 4, 4, 0, 4, 2, 4]), 8, DICT).text, 'a b');
});

test('an all-blank line reads as nothing', () => {
  const r = ctcDecode(probs([0, 0, 0]), 3, DICT);
  assert.deepEqual(r, { text: '', confidence: 0, chars: [], centres: [] });
});

test('centres are the CTC peaks; blanks alone never make a space (word gaps come from the ink: word-gaps.ts)', () => {
  const path = [1, 0, 0, 0, 0, 0, 2];
  const r = ctcDecode(probs(path), 7, DICT);
  assert.equal(r.text, 'ab');
  assert.equal(r.centres.length, 2);
  assert.ok(Math.abs(r.centres[0] - 0.5 / 7) < 1e-6 && Math.abs(r.centres[1] - 6.5 / 7) < 1e-6);
});

test("bestClasses keeps each row's three likeliest classes (probabilities, then indices) and the last class's, the space's", () => {
  const rows = new Float32Array([0.1, 0.6, 0.2, 0.1, 0.4, 0.2, 0.3, 0.1, 0.3, 0.3, 0.2, 0.2]);
  assert.deepEqual(
    [...bestClasses(rows, 3, 4)].map((v) => Math.round(v * 10) / 10),
    [0.6, 0.2, 0.1, 1, 2, 0, 0.1, 0.4, 0.3, 0.2, 0, 2, 1, 0.1, 0.3, 0.3, 0.2, 0, 1, 2, 0.2],
  );
});

test("each letter keeps the recognizer's likeliest other letter where it peaked, when there is one", () => {
  // Timestep 1 reads b at 0.5 with c at 0.3 behind it; timestep 0 reads a with only the blank and the space behind.
  const rows = new Float32Array([0.05, 0.9, 0.0, 0.0, 0.05, 0.1, 0.0, 0.5, 0.3, 0.1]);
  const r = ctcDecode(bestClasses(rows, 2, DICT.length), 2, DICT);
  assert.equal(r.text, 'ab');
  assert.equal(r.chars[0].alternative, undefined);
  assert.equal(r.chars[1].alternative?.text, 'c');
  assert.ok(Math.abs((r.chars[1].alternative?.confidence ?? 0) - 0.3) < 1e-6);
});

const NUMBERS = ['', 'a', 'b', '2', '0', ',', ':', ' '];

/** Softmax rows over `NUMBERS`: each timestep's winning class at 0.7, and the space at `space[t]` (0.05 by default). */
function withSpaces(path: number[], space: Record<number, number> = {}): Float32Array {
  const n = NUMBERS.length;
  const out = new Float32Array(path.length * n);
  path.forEach((c, t) => {
    const s = space[t] ?? 0.05;
    for (let k = 0; k < n; k++) out[t * n + k] = (1 - 0.7 - (c === n - 1 ? 0 : s)) / (n - 2);
    out[t * n + n - 1] = c === n - 1 ? 0.7 : s;
    out[t * n + c] = 0.7;
  });
  return bestClasses(out, path.length, n);
}

test('a blank where the space was nearly as likely reads as a space between words', () => {
  // a a _ _ b: the blanks at timesteps 2–3 give the space 0.25 and 0.1.
  assert.equal(ctcDecode(withSpaces([1, 1, 0, 0, 2], { 2: 0.25, 3: 0.1 }), 5, NUMBERS).text, 'a b');
  assert.equal(ctcDecode(withSpaces([1, 1, 0, 0, 2], { 2: 0.1 }), 5, NUMBERS).text, 'ab', 'below HESITANT_SPACE');
  // Nor at the ends of the line.
  assert.equal(ctcDecode(withSpaces([0, 1, 0, 2, 0], { 0: 0.3, 4: 0.3 }), 5, NUMBERS).text, 'ab');
});

test("a photo's line takes a space at a lower bar", () => {
  const ranTogether = withSpaces([1, 1, 0, 0, 2], { 2: 0.1, 3: 0.001 });
  assert.equal(ctcDecode(ranTogether, 5, NUMBERS).text, 'ab', 'print: below HESITANT_SPACE');
  assert.equal(ctcDecode(ranTogether, 5, NUMBERS, 1, PHOTO_HESITANT_SPACE).text, 'a b');
  assert.equal(ctcDecode(withSpaces([1, 1, 0, 0, 2], { 2: 0.01, 3: 0.001 }), 5, NUMBERS, 1, PHOTO_HESITANT_SPACE).text, 'ab');
});

test('a hesitant space never goes before punctuation or inside a number; a sure one stays', () => {
  // a _ :   and   2 , _ 0 0   and   2 _ 0
  assert.equal(ctcDecode(withSpaces([1, 0, 6], { 1: 0.3 }), 3, NUMBERS).text, 'a:');
  assert.equal(ctcDecode(withSpaces([3, 5, 0, 4, 0, 4], { 2: 0.3 }), 6, NUMBERS).text, '2,00');
  assert.equal(ctcDecode(withSpaces([3, 0, 4], { 1: 0.3 }), 3, NUMBERS).text, '2 0', 'digits apart are two numbers');
  assert.equal(ctcDecode(withSpaces([1, 7, 6]), 3, NUMBERS).text, 'a :', "the recognizer's own space is kept");
  // A hesitant blank next to a sure space is one space, and a sure one.
  assert.equal(ctcDecode(withSpaces([1, 0, 7, 6], { 1: 0.3 }), 4, NUMBERS).text, 'a :');
});

test("each character after the first keeps the space's best chance between it and its neighbour, for the ink's word gaps", () => {
  // a a _ _ b _ 2: the space 0.1 and 0.02 between a and b, 0.05 (the default) around the blank before 2.
  const r = ctcDecode(withSpaces([1, 1, 0, 0, 2, 0, 3], { 2: 0.1, 3: 0.02 }), 7, NUMBERS);
  assert.equal(r.text, 'ab2');
  assert.deepEqual(
    r.chars.map((c) => c.spaceBefore && Math.round(c.spaceBefore * 100) / 100),
    [undefined, 0.1, 0.05],
  );
});

test('a dictionary without a space never reads one', () => {
  const dict = ['', 'a', 'b'];
  const rows = new Float32Array([0, 1, 0, 0.6, 0, 0.4, 0, 0, 1]);
  assert.equal(ctcDecode(bestClasses(rows, 3, 3), 3, dict).text, 'ab');
});
