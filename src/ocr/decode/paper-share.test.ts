import assert from 'node:assert/strict';
import { test } from 'node:test';
import sharp from 'sharp';
import { decodeImage } from './decode-image.ts';
import type { Quad } from '../ocr-types.ts';
import { isPhoto, PAGE_MIN_PAPER, paperShare, paperShareUnder } from './paper-share.ts';

async function image(svgBody: string, width: number, height: number, background: string) {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="${background}"/>${svgBody}</svg>`;
  return decodeImage(new Uint8Array(await sharp(Buffer.from(svg)).png().toBuffer()));
}

test('a page of print is mostly paper, a dark or colourful photo is not', async () => {
  const rows = Array.from(
    { length: 20 },
    (_, i) =>
      `<text x="40" y="${60 + i * 40}" font-family="Liberation Serif" font-size="28">Line ${i} of a printed page, black on white paper</text>`,
  ).join('');
  assert.ok(paperShare(await image(rows, 900, 900, 'white')) >= PAGE_MIN_PAPER);
  // A cream-coloured old page still counts as paper.
  assert.ok(paperShare(await image(rows, 900, 900, '#eee6d8')) >= PAGE_MIN_PAPER);
  assert.ok(paperShare(await image('<text x="40" y="200" font-size="80" fill="white">SALE</text>', 900, 600, '#2a5d8f')) < PAGE_MIN_PAPER);
  assert.ok(paperShare(await image('', 640, 480, '#303030')) < PAGE_MIN_PAPER);
});

test('tiny and degenerate images give a share in [0, 1]', async () => {
  for (const [w, h] of [
    [1, 1],
    [1, 500],
    [3000, 1],
  ]) {
    const share = paperShare(await image('', w, h, 'white'));
    assert.ok(share >= 0 && share <= 1, `${w}×${h}: ${share}`);
  }
  assert.equal(paperShare({ width: 0, height: 0, rgb: new Uint8Array(0), format: 'png', scale: 1 }), 0);
});

/** `count` lines of print on a light sheet at (left, top) of `sheet` colour, and the lines' boxes. */
function printedLines(count: number, left: number, top: number, sheet: string, ink = '#222') {
  const lines = Array.from({ length: count }, (_, i) => ({ x: left + 20, y: top + 20 + i * 30, width: 300, height: 24 }));
  const body =
    `<rect x="${left}" y="${top}" width="340" height="${count * 30 + 40}" fill="${sheet}"/>` +
    lines
      .map(
        (l, i) =>
          `<text x="${l.x}" y="${l.y + 18}" font-family="Liberation Mono" font-size="18" fill="${ink}">ITEM ${i} QTY 1 ${i}.50</text>`,
      )
      .join('');
  const quads = lines.map((l) => [
    { x: l.x, y: l.y },
    { x: l.x + l.width, y: l.y },
    { x: l.x + l.width, y: l.y + l.height },
    { x: l.x, y: l.y + l.height },
  ]) as Quad[];
  return { body, quads };
}

test('a receipt photographed on a dark table, or in dim warm light, is a page; a street photo is not', async () => {
  const table = printedLines(24, 300, 60, 'white');
  const onTable = await image(table.body, 940, 880, '#3e2e22');
  assert.ok(paperShare(onTable) < PAGE_MIN_PAPER, 'little of the frame is paper');
  assert.equal(isPhoto(onTable, table.quads), false);

  // Warm, dim light: the sheet is tan and darker than any scan's paper, the ink brown.
  const dim = printedLines(24, 0, 0, '#968769', '#2a2018');
  const dimPage = await image(dim.body, 340, 760, '#968769');
  assert.ok(paperShare(dimPage) < PAGE_MIN_PAPER, 'no pixel is light grey as taken');
  assert.equal(isPhoto(dimPage, dim.quads), false);

  // A few signs on a white board in a street: too few lines to be a page.
  const sign = printedLines(3, 300, 60, 'white');
  assert.equal(isPhoto(await image(sign.body, 940, 880, '#3e2e22'), sign.quads), true);
  // Many lines of light lettering on a coloured poster: its white is the letters', not paper.
  const poster = printedLines(24, 300, 60, '#2a5d8f', 'white');
  assert.equal(isPhoto(await image(poster.body, 940, 880, '#3e2e22'), poster.quads), true);
  // In the dark, nothing is paper, however many lines.
  const night = printedLines(24, 300, 60, '#262626', '#101010');
  assert.equal(isPhoto(await image(night.body, 940, 880, '#101010'), night.quads), true);
  assert.equal(paperShareUnder(onTable, []), 0);
});
