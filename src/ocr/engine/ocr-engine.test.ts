import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { test, type TestContext } from 'node:test';
import sharp from 'sharp';
import { FIXTURE_TEXT, fixture } from '../../../test/fixtures/images/fixtures.ts';
import { createOcrEngine } from './ocr-engine.ts';
import type { OcrOptions } from '../ocr-types.ts';

const TEXT: OcrOptions = { mode: 'text', languageHints: [] };

function engineFor(t: TestContext, opts: { workers?: number; queueMax?: number; profile?: boolean } = {}) {
  const engine = createOcrEngine({ workers: opts.workers ?? 1, threads: 1, queueMax: opts.queueMax ?? 8, profile: opts.profile });
  t.after(() => engine.close());
  return engine;
}

test('the engine reads an image in a worker and returns plain data with timings', async (t) => {
  const engine = engineFor(t, { profile: true });
  assert.equal(engine.isReady, false);
  await engine.ready();
  assert.equal(engine.isReady, true);
  const bytes = fixture('line.png');
  const outcome = await engine.run(bytes, TEXT);
  assert.ok(outcome.ok, JSON.stringify(outcome));
  assert.equal(outcome.value.text.trim(), FIXTURE_TEXT.line);
  assert.ok(outcome.timings && outcome.timings.recognize >= 0 && outcome.timings.detect >= 0);
  // The caller's bytes are copied before the transfer, never detached.
  assert.equal(bytes.byteLength > 0, true);
  assert.equal(bytes[1], 0x50);
});

test('unreadable images come back as typed failures, not exceptions', async (t) => {
  const engine = engineFor(t);
  const cases: Array<[Uint8Array, string]> = [
    [new Uint8Array(0), 'IMAGE_EMPTY'],
    [new Uint8Array(crypto.randomBytes(1000)), 'IMAGE_UNSUPPORTED'],
    [fixture('page.png').subarray(0, 500), 'IMAGE_CORRUPT'],
  ];
  for (const [bytes, code] of cases) {
    const outcome = await engine.run(bytes, TEXT);
    assert.equal(outcome.ok, false);
    if (!outcome.ok) {
      assert.equal(outcome.code, code);
      assert.ok(outcome.message.length > 0);
    }
  }
  // The worker survives failures.
  const after = await engine.run(fixture('line.png'), TEXT);
  assert.ok(after.ok);
});

test('beyond the queue bound, images are refused as overloaded', async (t) => {
  const engine = engineFor(t, { workers: 1, queueMax: 1 });
  const runs = Array.from({ length: 5 }, () => engine.run(fixture('line.png'), TEXT));
  assert.ok(engine.queueSize >= 0);
  const outcomes = await Promise.all(runs);
  const overloaded = outcomes.filter((o) => !o.ok && o.code === 'OVERLOADED');
  assert.equal(overloaded.length, 3); // one running, one waiting, three refused
  assert.equal(outcomes.filter((o) => o.ok).length, 2);
});

test('a closed engine answers instead of hanging', async (t) => {
  const engine = engineFor(t);
  await engine.close();
  const outcome = await engine.run(fixture('line.png'), TEXT);
  assert.equal(outcome.ok, false);
});

test("workers read hinted languages through the engine's one set of Tesseract workers", async (t) => {
  const engine = engineFor(t, { workers: 2 });
  const line = async (text: string) => {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${text.length * 22 + 60}" height="80">
      <rect width="100%" height="100%" fill="#fff"/><text x="30" y="52" font-family="DejaVu Sans" font-size="32">${text}</text></svg>`;
    return new Uint8Array(await sharp(Buffer.from(svg)).png().toBuffer());
  };
  const texts = ['Xin chào thế giới', 'Tiếng Việt có dấu'];
  const outcomes = await Promise.all(texts.map(async (text) => engine.run(await line(text), { mode: 'document', languageHints: ['vi'] })));
  for (const [i, outcome] of outcomes.entries()) {
    assert.ok(outcome.ok, JSON.stringify(outcome));
    assert.equal(outcome.value.text.trim(), texts[i]);
  }
});
