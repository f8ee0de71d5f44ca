/**
 * `multipart/related` as Cloud Storage's multipart upload sends it (RFC 2387): a JSON part with the
 * object's metadata, then the media part. Returns undefined for anything else.
 */
export function parseMultipartRelated(
  contentType: string | undefined,
  body: Buffer,
): { metadata: Record<string, unknown>; media: Buffer; mediaType?: string } | undefined {
  const boundary = /boundary="?([^";]+)"?/i.exec(contentType ?? '')?.[1];
  if (!boundary) return undefined;
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: Array<{ headers: string; body: Buffer }> = [];
  let at = body.indexOf(delimiter);
  while (at >= 0) {
    const start = at + delimiter.length;
    if (body.subarray(start, start + 2).toString() === '--') break;
    const next = body.indexOf(delimiter, start);
    if (next < 0) return undefined;
    const part = body.subarray(start, next);
    const split = part.indexOf('\r\n\r\n');
    if (split < 0) return undefined;
    // The part ends with the CRLF that precedes the next delimiter.
    const end = part.subarray(part.length - 2).toString() === '\r\n' ? part.length - 2 : part.length;
    parts.push({ headers: part.subarray(0, split).toString('latin1'), body: part.subarray(split + 4, end) });
    at = next;
  }
  if (parts.length !== 2) return undefined;
  try {
    const metadata = JSON.parse(parts[0].body.toString('utf8')) as Record<string, unknown>;
    if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata)) return undefined;
    const mediaType = /content-type:\s*([^\r\n]+)/i.exec(parts[1].headers)?.[1]?.trim();
    return { metadata, media: parts[1].body, mediaType };
  } catch {
    return undefined;
  }
}
