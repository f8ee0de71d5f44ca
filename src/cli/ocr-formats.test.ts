import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { legibleOcr, textImage } from '../../test/helpers/cli-process.ts';
import { tempDir } from '../../test/helpers/temp-dir.ts';
import { test } from 'node:test';
import sharp from 'sharp';

test("stdin (-), Tesseract language codes, --format vision: the server's AnnotateImageResponse", async () => {
  const dir = tempDir('legible-ocr-cli-');
  await textImage(path.join(dir, 'hello.png'), 'HELLO');
  const png = await fs.readFile(path.join(dir, 'hello.png'));
  const r = await legibleOcr(['-l', 'eng', '--format', 'vision', '-'], png);
  assert.equal(r.code, 0, r.stderr);
  const lines = r.stdout.trim().split('\n');
  assert.equal(lines.length, 1);
  const body = JSON.parse(lines[0]);
  assert.deepEqual(Object.keys(body), ['responses']);
  const [res] = body.responses;
  assert.deepEqual(Object.keys(res), ['textAnnotations', 'fullTextAnnotation']);
  assert.match(res.textAnnotations[0].description, /HELLO/);
  assert.equal(res.textAnnotations[0].locale, 'en');
  assert.ok(res.fullTextAnnotation.pages[0].blocks[0].paragraphs[0].words.length > 0);
  assert.equal(res.fullTextAnnotation.pages[0].width, 640);
  // TEXT_DETECTION answers without confidences, as the server does; DOCUMENT with them.
  assert.equal(res.fullTextAnnotation.pages[0].confidence, undefined);
});

test('--format tsv and hocr follow Tesseract; several files, one bad: vision entries carry context.uri and error', async () => {
  const dir = tempDir('legible-ocr-cli-');
  await textImage(path.join(dir, 'a&b <"1">.png'), 'ALPHA BETA');
  await fs.writeFile(path.join(dir, 'bad.png'), 'not an image');
  const files = [path.join(dir, 'a&b <"1">.png'), path.join(dir, 'bad.png')];

  const tsv = await legibleOcr(['--document', '-f', 'tsv', ...files]);
  assert.equal(tsv.code, 1, 'one file failed');
  const rows = tsv.stdout
    .trim()
    .split('\n')
    .map((l) => l.split('\t'));
  assert.deepEqual(rows[0], [
    'level',
    'page_num',
    'block_num',
    'par_num',
    'line_num',
    'word_num',
    'left',
    'top',
    'width',
    'height',
    'conf',
    'text',
  ]);
  assert.ok(rows.slice(1).every((r) => r.length === 12));
  assert.deepEqual([...new Set(rows.slice(1).map((r) => r[0]))].sort(), ['1', '2', '3', '4', '5']);
  const words = rows.filter((r) => r[0] === '5');
  assert.deepEqual(
    words.map((w) => w[11]),
    ['ALPHA', 'BETA'],
  );
  for (const w of words) assert.ok(Number(w[10]) > 50 && Number(w[10]) <= 100 && Number(w[8]) > 0 && Number(w[9]) > 0, w.join(' '));
  assert.match(tsv.stderr, /error: .*bad\.png/);

  const hocr = await legibleOcr(['--document', '-f', 'hocr', ...files]);
  assert.equal(hocr.code, 1);
  assert.match(hocr.stdout, /^<\?xml version="1.0" encoding="UTF-8"\?>/);
  assert.match(hocr.stdout, /<\/body>\n<\/html>\n$/);
  assert.match(hocr.stdout, /class="ocr_page" id="page_1" title="image &quot;[^"<>]*a&amp;b &lt;1&gt;\.png&quot;; bbox 0 0 640 120/);
  assert.match(hocr.stdout, /class="ocrx_word" id="word_1_1" title="bbox \d+ \d+ \d+ \d+; x_wconf \d+">ALPHA<\/span>/);
  assert.equal((hocr.stdout.match(/<div/g) ?? []).length, (hocr.stdout.match(/<\/div>/g) ?? []).length);
  assert.equal((hocr.stdout.match(/<span/g) ?? []).length, (hocr.stdout.match(/<\/span>/g) ?? []).length);

  const vision = await legibleOcr(['-f', 'vision', ...files]);
  assert.equal(vision.code, 1);
  const [ok, bad] = vision.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l).responses[0]);
  assert.equal(ok.context.uri, files[0]);
  assert.match(ok.textAnnotations[0].description, /ALPHA/);
  assert.deepEqual(bad, { error: { code: 3, message: 'Bad image data.' }, context: { uri: files[1] } });
});

test('an image without text: exit 0, a warning and a --lang hint on stderr; oversized or empty stdin fails', async () => {
  const dir = tempDir('legible-ocr-cli-');
  await sharp({ create: { width: 320, height: 200, channels: 3, background: '#ffffff' } })
    .png()
    .toFile(path.join(dir, 'blank.png'));
  const r = await legibleOcr([path.join(dir, 'blank.png')]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, /warning: .*blank\.png: no text found/);
  assert.match(r.stderr, /--lang ara/);

  const huge = await legibleOcr(['-f', 'json', '-'], Buffer.alloc(21 * 2 ** 20));
  assert.equal(huge.code, 1);
  assert.equal(JSON.parse(huge.stdout).code, 'IMAGE_TOO_LARGE');
  const empty = await legibleOcr(['-'], Buffer.alloc(0));
  assert.equal(empty.code, 1);
  assert.match(empty.stderr, /error: -: /);
});
