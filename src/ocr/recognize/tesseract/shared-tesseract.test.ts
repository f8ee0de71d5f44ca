import { after, test, type TestContext } from 'node:test';
import sharp from 'sharp';
import type { Page } from 'tesseract.js';
import { serveTesseract, tesseractClient } from './shared-tesseract.ts';
import { TesseractWorkers } from './tesseract-workers.ts';
import { unevenlyLitSign } from '../../../../test/helpers/unevenly-lit-sign.ts';

const workers = new TesseractWorkers({ maxLoaded: 2 });
const service = serveTesseract('shared-tesseract-test', workers);
after(async () => {
  service.close();
  await workers.close();
});

async function linePgm(text: string): Promise<Uint8Array> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${text.length * 22 + 40}" height="64">
    <rect width="100%" height="100%" fill="#fff"/><text x="20" y="44" font-family="DejaVu Sans" font-size="32">${text}</text></svg>`;
  const { data, info } = await sharp(Buffer.from(svg)).greyscale().raw().toBuffer({ resolveWithObject: true });
  return new Uint8Array(Buffer.concat([Buffer.from(`P5\n${info.width} ${info.height}\n255\n`), data]));
}

/** The words Tesseract read, from the block tree (the workers ask for blocks, not plain text). */
const wordsOf = (page: Page) =>
  (page.blocks ?? []).flatMap((b) => b.paragraphs.flatMap((p) => p.lines.flatMap((l) => l.words.map((w) => w.text)))).join(' ');

test('clients on the channel share one set of Tesseract workers, each getting its own answers', async (t: TestContext) => {
  const [a, b] = [tesseractClient('shared-tesseract-test'), tesseractClient('shared-tesseract-test')];
  const [first, second] = await Promise.all([
    a.recognizeLine(['spa'], await linePgm('Hola')),
    b.recognizeLine(['spa'], await linePgm('mundo')),
  ]);
  t.assert.equal(wordsOf(first), 'Hola');
  t.assert.equal(wordsOf(second), 'mundo');
  t.assert.deepEqual(workers.loaded, ['spa']);
});

test("a client's line read per tile is read so by the shared workers (a sign whose light falls off across it)", async (t: TestContext) => {
  const sign = await unevenlyLitSign(1);
  const pgm = new Uint8Array(Buffer.concat([Buffer.from(`P5\n${sign.width} ${sign.height}\n255\n`), sign.pixels]));
  const client = tesseractClient('shared-tesseract-test');
  const [whole, tiled] = [wordsOf(await client.recognizeLine(['vie'], pgm)), wordsOf(await client.recognizeLine(['vie'], pgm, true))];
  t.assert.notEqual(tiled, whole);
  t.assert.equal(tiled, wordsOf(await workers.recognizeLine(['vie'], pgm, true)));
});

test('a failure in the shared workers reaches the client that asked, as an error', async (t: TestContext) => {
  const client = tesseractClient('shared-tesseract-test');
  await t.assert.rejects(client.recognizeLine(['xyz'], await linePgm('Hola')), /No xyz.traineddata/);
});

test('a read that ends after the service closed has its reply dropped, no error escapes', async (t: TestContext) => {
  const own = new TesseractWorkers({ maxLoaded: 1 });
  const closing = serveTesseract('shared-tesseract-closing', own);
  const escaped: unknown[] = [];
  const onUnhandled = (reason: unknown) => escaped.push(reason);
  process.on('unhandledRejection', onUnhandled);
  t.after(() => process.off('unhandledRejection', onUnhandled));
  void tesseractClient('shared-tesseract-closing').recognizeLine(['spa'], await linePgm('Hola'));
  await new Promise((resolve) => setTimeout(resolve, 20));
  closing.close();
  // The read (the set loads first, ~0.3 s) finishes after the channel has closed.
  await new Promise((resolve) => setTimeout(resolve, 1500));
  await own.close();
  t.assert.deepEqual(escaped, []);
});
