import { test, type TestContext } from 'node:test';
import { fixture } from './fixtures/images/fixtures.ts';
import { buildTestApp } from './helpers/build-test-app.ts';
import { createTestAccount, setupProject } from './helpers/common-route-tests.ts';
import { hostileImages } from './helpers/hostile-images.ts';

/**
 * Issue 16, "Done when": a corpus of ~50 hostile images (bombs in every format, lying headers,
 * truncated files, huge metadata, many frames/entries/pages) through `images:annotate`: no 5xx, every
 * request answered (no worker stuck: the per-image deadline frees it), memory bounded, and the
 * engine still reads a normal image afterwards. Peak RSS is printed for the record.
 */
const GB = 1024 ** 3;

test('hostile images through images:annotate: no 5xx, no stuck worker, RSS bounded', async (t: TestContext) => {
  const corpus = await hostileImages();
  t.assert.ok(corpus.length >= 50, `${corpus.length} files`);
  const { app, database } = await buildTestApp(t, 'sqlite', { OCR_WARM: 'false', OCR_IMAGE_TIMEOUT_MS: '30000' });
  const owner = await createTestAccount(database, 'acme');
  const { keyString } = await setupProject(app, owner, 'hostile-project', { apis: ['ocr'], key: {} });
  await app.ocr.ready();
  const annotate = (bytes: Uint8Array) =>
    app.inject({
      method: 'POST',
      url: '/v1/images:annotate',
      headers: { 'x-goog-api-key': keyString! },
      payload: {
        requests: [{ image: { content: Buffer.from(bytes).toString('base64') }, features: [{ type: 'DOCUMENT_TEXT_DETECTION' }] }],
      },
    });

  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  t.after(() => clearInterval(sampler));
  const outcomes: string[] = [];
  for (const { name, bytes } of corpus) {
    const before = peak;
    const res = await annotate(bytes);
    t.assert.ok(res.statusCode < 500, `${name}: ${res.statusCode} ${res.body.slice(0, 300)}`);
    const entry = res.statusCode === 200 ? res.json().responses[0] : undefined;
    outcomes.push(
      `${name}: ${res.statusCode} ${entry?.error ? `error ${entry.error.code} ${entry.error.message.slice(0, 60)}` : 'read'} (peak +${Math.round((peak - baseline) / 2 ** 20)} MB)`,
    );
    // Generous: a 75-megapixel image decodes to 225 MB of RGB plus its detector input.
    t.assert.ok(peak - Math.max(before, baseline) < 1.2 * GB, `${name}: RSS grew by ${Math.round((peak - before) / 2 ** 20)} MB`);
  }
  clearInterval(sampler);
  t.diagnostic(outcomes.join('\n'));
  t.diagnostic(`baseline RSS ${Math.round(baseline / 2 ** 20)} MB, peak ${Math.round(peak / 2 ** 20)} MB`);
  // Growth over the loaded engine, not absolute: this process also holds the test's own corpus and app.
  t.assert.ok(peak - baseline < 1.5 * GB, `peak RSS ${Math.round(peak / 2 ** 20)} MB over a ${Math.round(baseline / 2 ** 20)} MB baseline`);
  // The worker is still there and reads.
  const after = await annotate(fixture('line.png'));
  t.assert.equal(after.statusCode, 200);
  t.assert.ok(JSON.stringify(after.json()).includes('Legible'), after.body.slice(0, 300));
});
