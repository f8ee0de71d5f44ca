/** CRC-32C (Castagnoli), as Cloud Storage reports it: big-endian, base64 (the `crc32c` field, `x-goog-hash`). */
const TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n += 1) {
    let c = n;
    for (let k = 0; k < 8; k += 1) c = c & 1 ? 0x82f63b78 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

export function crc32c(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (let i = 0; i < bytes.length; i += 1) crc = TABLE[(crc ^ bytes[i]) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

export function crc32cBase64(bytes: Uint8Array): string {
  const out = Buffer.alloc(4);
  out.writeUInt32BE(crc32c(bytes));
  return out.toString('base64');
}
