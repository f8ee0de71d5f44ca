import zlib from 'node:zlib';

/**
 * A decompression-bomb guard for PDFs, run before PDF.js sees the file: every `stream … endstream`
 * body is inflated with zlib (native, streaming, output counted and dropped) and the file is refused
 * when one stream would inflate beyond `maxStreamBytes`. PDF.js keeps a decoded stream whole in
 * memory (its DecodeStream buffer doubles as it grows), so a 1 MB stream of zeros would otherwise
 * cost a gigabyte. Bodies that are not zlib data fail zlib's header check at once and cost nothing.
 */
export async function largestInflatedStream(pdf: Uint8Array, maxStreamBytes: number): Promise<{ tooLarge: boolean; largest: number }> {
  const bytes = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength);
  let largest = 0;
  let from = 0;
  for (;;) {
    const keyword = bytes.indexOf('stream', from, 'latin1');
    if (keyword < 0) break;
    from = keyword + 6;
    // `endstream` contains `stream`: skip it.
    if (keyword >= 3 && bytes.toString('latin1', keyword - 3, keyword) === 'end') continue;
    let start = keyword + 6;
    if (bytes[start] === 0x0d) start += 1;
    if (bytes[start] === 0x0a) start += 1;
    const end = bytes.indexOf('endstream', start, 'latin1');
    const body = bytes.subarray(start, end < 0 ? bytes.length : end);
    const size = await inflatedSize(body, maxStreamBytes);
    largest = Math.max(largest, size);
    if (size > maxStreamBytes) return { tooLarge: true, largest };
    if (end > 0) from = end + 9;
  }
  return { tooLarge: false, largest };
}

function inflatedSize(body: Buffer, cap: number): Promise<number> {
  return new Promise((resolve) => {
    let size = 0;
    let settled = false;
    const done = () => {
      if (settled) return;
      settled = true;
      resolve(size);
    };
    const inflate = zlib.createInflate({ chunkSize: 64 * 1024 });
    inflate.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > cap) {
        inflate.destroy();
        done();
      }
    });
    inflate.on('end', done);
    inflate.on('close', done);
    inflate.on('error', done);
    inflate.end(body);
  });
}
