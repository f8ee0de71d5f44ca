/** Reads a stream to its end, or stops (destroying it) once it passes `limit` bytes: memory stays bounded. */
export async function readLimited(stream: NodeJS.ReadableStream & { destroy?: () => void }, limit: number): Promise<Buffer | 'too-large'> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += buf.length;
    if (size > limit) {
      stream.destroy?.();
      return 'too-large';
    }
    chunks.push(buf);
  }
  return Buffer.concat(chunks, size);
}
