import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fixture } from '../../../test/fixtures/images/fixtures.ts';
import { icoHeaderSize, sniffImageFormat } from './image-format.ts';

test('formats are recognised by their magic bytes, not by name', () => {
  const cases: Array<[string, string]> = [
    ['line.png', 'png'],
    ['page-cmyk.jpg', 'jpeg'],
    ['line-animated.gif', 'gif'],
    ['line.webp', 'webp'],
    ['line.tiff', 'tiff'],
    ['line.bmp', 'bmp'],
    ['line.ico', 'ico'],
    ['line.avif', 'avif'],
  ];
  for (const [name, format] of cases) assert.equal(sniffImageFormat(fixture(name)), format, name);
});

test('HEIC is told from AVIF by its ftyp brands', () => {
  const ftyp = (brand: string, compatible: string[]) => {
    const body = Buffer.concat([Buffer.from(brand), Buffer.alloc(4), ...compatible.map((b) => Buffer.from(b))]);
    const size = Buffer.alloc(4);
    size.writeUInt32BE(8 + body.length);
    return new Uint8Array(Buffer.concat([size, Buffer.from('ftyp'), body, Buffer.alloc(16)]));
  };
  assert.equal(sniffImageFormat(ftyp('heic', ['mif1', 'heic'])), 'heic');
  assert.equal(sniffImageFormat(ftyp('mif1', ['mif1', 'avif'])), 'avif');
  assert.equal(sniffImageFormat(ftyp('isom', ['isom', 'mp42'])), undefined); // an MP4 video
});

test('non-images and fragments are not recognised', () => {
  assert.equal(sniffImageFormat(new Uint8Array(0)), undefined);
  assert.equal(sniffImageFormat(new Uint8Array([0xff, 0xd8])), undefined);
  assert.equal(sniffImageFormat(new TextEncoder().encode('%PDF-1.7 hello')), undefined);
  assert.equal(sniffImageFormat(new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>')), undefined);
});

test('an ICO reports the size of its largest entry from the entry header', () => {
  assert.deepEqual(icoHeaderSize(fixture('line.ico')), { width: 256, height: 64 });
  const truncated = fixture('line.ico').subarray(0, 10);
  assert.equal(icoHeaderSize(truncated), undefined);
});
