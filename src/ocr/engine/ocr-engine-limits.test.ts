import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { FIXTURE_TEXT, fixture } from '../../../test/fixtures/images/fixtures.ts';
import { createOcrEngine } from './ocr-engine.ts';
import type { OcrOptions } from '../ocr-types.ts';

const TEXT: OcrOptions = { mode: 'text', languageHints: [] };

function engineFor(t: TestContext, opts: { workers?: number; queueMax?: number; imageTimeoutMs?: number; pixelBudget?: number } = {}) {
  const engine = createOcrEngine({
    workers: opts.workers ?? 1,
    threads: 1,
    queueMax: opts.queueMax ?? 8,
    imageTimeoutMs: opts.imageTimeoutMs ?? 120_000,
    pixelBudget: opts.pixelBudget,
  });
  t.after(() => engine.close());
  return engine;
}

test('an image past its deadline answers TIMEOUT and its worker is replaced, not left busy', async (t) => {
  const engine = engineFor(t, { workers: 1 });
  // 1 ms: no image is read that fast (the worker alone takes longer to load its models).
  const late = await Promise.all([
    engine.run(fixture('page.png'), TEXT, { timeoutMs: 1 }),
    engine.run(fixture('page.png'), TEXT, { timeoutMs: 1 }),
  ]);
  for (const outcome of late) assert.deepEqual(outcome.ok ? 'ok' : outcome.code, 'TIMEOUT');
  // The one worker was stopped, so the next image gets a fresh one and is read.
  const next = await engine.run(fixture('line.png'), TEXT);
  assert.ok(next.ok, JSON.stringify(next));
  assert.equal(next.value.text.trim(), FIXTURE_TEXT.line);
});

test('a reservation admits a whole request or none of it, at once', async (t) => {
  const engine = engineFor(t, { workers: 1, queueMax: 2 }); // 3 places
  const first = engine.reserve(2);
  assert.ok(first);
  assert.equal(engine.reserve(2), undefined, 'two more places do not fit: refused whole');
  const second = engine.reserve(1);
  assert.ok(second);
  assert.equal(engine.reserve(1), undefined);
  // A lone run() needs a place too.
  const refused = await engine.run(fixture('line.png'), TEXT);
  assert.equal(refused.ok ? 'ok' : refused.code, 'OVERLOADED');
  first.release();
  const outcome = await second.run(fixture('line.png'), TEXT);
  assert.ok(outcome.ok);
  // A reservation runs at most as many images as it holds places.
  const extra = await second.run(fixture('line.png'), TEXT);
  assert.equal(extra.ok ? 'ok' : extra.code, 'OVERLOADED');
  second.release();
  second.release(); // idempotent
  const third = engine.reserve(3);
  assert.ok(third);
  third.release();
});

test('past the pixel budget an image waits for the others, although a worker is free; one always runs', async (t) => {
  const engine = engineFor(t, { workers: 2, pixelBudget: 1 }); // every image is over the budget
  const first = engine.run(fixture('page.png'), TEXT);
  const second = engine.run(fixture('line.png'), TEXT);
  await new Promise((resolve) => setTimeout(resolve, 200)); // both headers read: one runs, one waits
  assert.equal(engine.queueSize, 1, 'the second image waits with a worker free');
  const outcomes = await Promise.all([first, second]);
  for (const outcome of outcomes) assert.ok(outcome.ok, JSON.stringify(outcome));
  assert.equal(engine.queueSize, 0);
});

test('a worker stopped during a full-size detection stops after the run: the next image is read', async (t) => {
  const engine = engineFor(t, { workers: 2 });
  await engine.ready();
  // A blank 4000×3000 page: the cheap probe finds nothing, so it is detected again at 2016 px, in strips.
  const { default: sharp } = await import('sharp');
  const blank = new Uint8Array(
    await sharp({ create: { width: 4000, height: 3000, channels: 3, background: '#fff' } })
      .png()
      .toBuffer(),
  );
  // The full-size detection is most of the page's time, however fast the machine: a run stopped
  // half way through the faster of two is inside it. Two, because the first also grows the arena
  // for this shape, and 3/4 of a cold run once outlasted a whole warm one on CI.
  let fastest = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 2; i++) {
    const started = performance.now();
    const whole = await engine.run(blank, TEXT, { timeoutMs: 30_000 });
    assert.ok(whole.ok, JSON.stringify(whole));
    fastest = Math.min(fastest, performance.now() - started);
  }
  const stopped = await engine.run(blank, TEXT, { timeoutMs: Math.round(fastest / 2) });
  assert.equal(stopped.ok ? 'ok' : stopped.code, 'TIMEOUT');
  const next = await engine.run(blank, TEXT, { timeoutMs: 30_000 });
  assert.ok(next.ok, JSON.stringify(next));
});
