import { test, type TestContext } from 'node:test';
import type { Quad } from '../ocr-types.ts';
import type { LineReading } from './recognizer.ts';
import { settleFlips } from './settle-flips.ts';

const box = (x: number): Quad => [
  { x, y: 0 },
  { x: x + 100, y: 0 },
  { x: x + 100, y: 20 },
  { x, y: 20 },
];
const turned = (q: Quad): Quad => [q[2], q[3], q[0], q[1]];
const reading = (text: string, confidence: number): LineReading => ({ text, confidence, chars: [] });

test('a turned line keeps the likelier way up; lines not turned are not read again', async (t: TestContext) => {
  // Line 0 was turned wrongly (reads better the other way), line 1 rightly, line 2 was not turned.
  const quads = [turned(box(0)), turned(box(200)), box(400)];
  const readings = [reading('', 0), reading('upside', 0.97), reading('plain', 0.95)];
  const asked: Quad[][] = [];
  const settled = await settleFlips(quads, readings, [0, 1], async (q) => {
    asked.push([...q]);
    return [reading('PHARMACY', 0.99), reading('ǝpısdn', 0.41)];
  });
  t.assert.deepEqual(asked, [[box(0), box(200)]]);
  t.assert.deepEqual(
    settled.readings.map((r) => r.text),
    ['PHARMACY', 'upside', 'plain'],
  );
  t.assert.deepEqual(settled.quads, [box(0), turned(box(200)), box(400)]);
});

test('nothing turned: nothing read again', async (t: TestContext) => {
  const settled = await settleFlips([box(0)], [reading('a', 0.9)], [], async () => {
    throw new Error('not called');
  });
  t.assert.equal(settled.readings[0].text, 'a');
});
