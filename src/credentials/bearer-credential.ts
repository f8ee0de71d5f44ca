/**
 * The credential of `Authorization: Bearer <credential>`. Any other header value is returned whole,
 * so it is refused as a malformed credential rather than as a missing one.
 */
export function bearerCredential(header: string): string {
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
  return match ? match[1] : header;
}
