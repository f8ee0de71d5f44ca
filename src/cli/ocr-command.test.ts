import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { legibleOcr, textImage } from '../../test/helpers/cli-process.ts';
import { tempDir } from '../../test/helpers/temp-dir.ts';
import { test } from 'node:test';

test('one image: prints its text, exit 0', async () => {
  const dir = tempDir('legible-ocr-cli-');
  await textImage(path.join(dir, 'hello.png'), 'HELLO');
  const r = await legibleOcr([path.join(dir, 'hello.png')]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /HELLO/);
  assert.doesNotMatch(r.stdout, /==/);
});

test('a folder, recursively: image files only, a header per file in name order, a summary', async () => {
  const dir = tempDir('legible-ocr-cli-');
  await fs.mkdir(path.join(dir, 'nested'));
  await textImage(path.join(dir, 'a.png'), 'FIRST');
  await textImage(path.join(dir, 'nested', 'b.png'), 'SECOND');
  await fs.writeFile(path.join(dir, 'notes.txt'), 'not an image');
  const r = await legibleOcr(['--document', '--concurrency', '1', dir]);
  assert.equal(r.code, 0, r.stderr);
  const headers = [...r.stdout.matchAll(/^== (.*) ==$/gm)].map((m) => m[1]);
  assert.deepEqual(headers, [path.join(dir, 'a.png'), path.join(dir, 'nested', 'b.png')]);
  assert.match(r.stdout, /FIRST[\s\S]*SECOND/);
  assert.match(r.stderr, /2 files, 0 failed, [\d.]+ s/);
});

test('JSON lines; missing, empty, corrupt, random, FIFO and oversized files are reported and skipped, exit 1', async () => {
  const dir = tempDir('legible-ocr-cli-');
  await textImage(path.join(dir, 'ok.png'), 'READABLE');
  const png = await fs.readFile(path.join(dir, 'ok.png'));
  await fs.writeFile(path.join(dir, 'empty.png'), Buffer.alloc(0));
  await fs.writeFile(path.join(dir, 'truncated.png'), png.subarray(0, Math.floor(png.length / 2)));
  await fs.writeFile(path.join(dir, 'random.jpg'), Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 251)));
  const missing = path.join(dir, 'missing.png');
  const huge = path.join(dir, 'huge.png');
  await fs.writeFile(huge, '');
  await fs.truncate(huge, 21 * 2 ** 20); // sparse: refused from its size, never read
  const fifo = path.join(dir, 'fifo.png');
  await new Promise<void>((resolve, reject) =>
    spawn('mkfifo', [fifo]).on('close', (c) => (c === 0 ? resolve() : reject(new Error('mkfifo')))),
  );
  const r = await legibleOcr([
    '--json',
    path.join(dir, 'ok.png'),
    missing,
    path.join(dir, 'empty.png'),
    path.join(dir, 'truncated.png'),
    path.join(dir, 'random.jpg'),
    fifo,
    huge,
  ]);
  assert.equal(r.code, 1, r.stderr);
  const lines = r.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  assert.deepEqual(
    lines.map((l) => path.basename(l.file)),
    ['ok.png', 'missing.png', 'empty.png', 'truncated.png', 'random.jpg', 'fifo.png', 'huge.png'],
  );
  assert.match(lines[0].text, /READABLE/);
  assert.equal(lines[0].locale, 'en');
  assert.ok(Array.isArray(lines[0].words) && lines[0].words.length > 0);
  for (const l of lines.slice(1)) assert.equal(typeof l.error, 'string', JSON.stringify(l));
  assert.equal(lines[1].error, 'no such file or directory');
  assert.equal(lines[5].error, 'not a regular file');
  assert.equal(lines[6].code, 'IMAGE_TOO_LARGE');
  assert.match(r.stderr, /7 files, 6 failed/);
});

test('bad arguments exit 2 before any image is read', async () => {
  const cases = [
    [],
    ['--concurrency', 'abc', 'x.png'],
    ['--concurrency', '0', 'x.png'],
    ['--lang', 'xx', 'x.png'],
    ['--lang', ',', 'x.png'],
    ['--bogus', 'x.png'],
  ];
  const results = await Promise.all(cases.map((args) => legibleOcr(args)));
  for (const [i, args] of cases.entries()) {
    const r = results[i];
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, /error:/);
    assert.equal(r.stdout, '');
  }
});

test('a folder without images: a clear message, exit 1', async () => {
  const dir = tempDir('legible-ocr-cli-');
  await fs.writeFile(path.join(dir, 'readme.md'), '# nothing');
  const r = await legibleOcr([dir]);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /no image files/);
});

test('a PDF: text per page with a `--- page N ---` line; --json gives one line per page; a hostile PDF fails alone', async () => {
  const dir = tempDir('legible-ocr-cli-');
  const { makePdf, hugePagePdf } = await import('../../test/helpers/document-fixtures.ts');
  await fs.writeFile(
    path.join(dir, 'doc.pdf'),
    await makePdf([
      { kind: 'text', lines: ['ALPHA PAGE'] },
      { kind: 'scan', lines: ['BRAVO PAGE'] },
    ]),
  );
  const r = await legibleOcr([path.join(dir, 'doc.pdf')]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^--- page 1 ---\nALPHA PAGE\n--- page 2 ---\nBRAVO PAGE/);
  const j = await legibleOcr(['--json', path.join(dir, 'doc.pdf')]);
  assert.deepEqual(
    j.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l).page),
    [1, 2],
  );
  await fs.writeFile(path.join(dir, 'huge.pdf'), hugePagePdf());
  const h = await legibleOcr([path.join(dir, 'huge.pdf')]);
  assert.equal(h.code, 1);
  assert.match(h.stderr, /200000 × 200000 pt/);
});
