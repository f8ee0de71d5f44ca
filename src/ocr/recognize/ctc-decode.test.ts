import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bestClasses, ctcDecode } from './ctc-decode.ts';

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

test("bestClasses keeps each row's most probable class and its probability", () => {
  const rows = new Float32Array([0.1, 0.7, 0.2, 0.5, 0.2, 0.3, 0.3, 0.3, 0.4]);
  assert.deepEqual(
    [...bestClasses(rows, 3, 3)].map((v) => Math.round(v * 10) / 10),
    [0.7, 1, 0.5, 0, 0.4, 2],
  );
});
