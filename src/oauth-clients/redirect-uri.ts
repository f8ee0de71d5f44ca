/** Published cap on one redirect URI (and on the client's other URIs). */
export const MAX_URI_LENGTH = 2000;

/** Hosts where plain `http` is allowed: the loopback interface, for native apps (RFC 8252 §7.3, §8.3). */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** Printable ASCII, no space: IRIs must be percent-encoded, and CR/LF/NUL never reach the store. */
const PRINTABLE_ASCII = /^[\x21-\x7e]+$/;
const SCHEME = /^([a-zA-Z][a-zA-Z0-9+.-]*):/;

/**
 * Why `uri` is not acceptable as an OAuth redirect URI, or `null` when it is.
 *
 * - absolute, at most 2000 characters, printable ASCII;
 * - no fragment (RFC 6749 §3.1.2) and no wildcard: OAuth 2.1 matches redirect URIs by exact string
 *   (https://datatracker.ietf.org/doc/html/draft-ietf-oauth-v2-1#section-2.3.1);
 * - `https://host…`; `http://` only on loopback (`127.0.0.1`, `[::1]`, `localhost`, any port) per RFC 8252 §7.3;
 * - a private-use scheme for native apps, which must contain a dot (reverse domain name, RFC 8252 §7.1:
 *   `com.example.app:/callback`). That rule alone refuses `javascript:`, `data:`, `file:`, `vbscript:`…
 * - no `user:password@`.
 *
 * @example
 *   redirectUriProblem('https://app.example.com/callback') // → null
 *   redirectUriProblem('http://example.com/cb')            // → 'http is only allowed on loopback …'
 */
export function redirectUriProblem(uri: string): string | null {
  const common = uriProblem(uri);
  if (common) return common;
  if (uri.includes('*')) return 'must not contain wildcards: redirect URIs are matched exactly.';
  const scheme = SCHEME.exec(uri)![1].toLowerCase();
  if (scheme === 'http' || scheme === 'https') return webUriProblem(uri, scheme === 'https');
  if (!scheme.includes('.')) {
    return `scheme "${scheme}:" is not allowed: use https, http on loopback, or a private-use scheme in reverse-domain form (com.example.app:/callback).`;
  }
  return null;
}

/**
 * Why `uri` is not acceptable as a client's web page (`clientUri`, `logoUri`, `tosUri`, `policyUri`),
 * or `null`: the same rules as a web redirect URI (https, or http on loopback), fragments allowed.
 */
export function webPageUriProblem(uri: string): string | null {
  if (uri.length > MAX_URI_LENGTH) return `must be at most ${MAX_URI_LENGTH} characters.`;
  if (!PRINTABLE_ASCII.test(uri)) return asciiMessage;
  const scheme = SCHEME.exec(uri)?.[1].toLowerCase();
  if (scheme !== 'http' && scheme !== 'https') return 'must be an https URL.';
  return webUriProblem(uri, scheme === 'https');
}

const asciiMessage = 'must be printable ASCII without spaces or control characters (percent-encode anything else).';

function uriProblem(uri: string): string | null {
  if (uri.length === 0) return 'must not be empty.';
  if (uri.length > MAX_URI_LENGTH) return `must be at most ${MAX_URI_LENGTH} characters.`;
  if (!PRINTABLE_ASCII.test(uri)) return asciiMessage;
  if (uri.includes('#')) return 'must not contain a fragment (RFC 6749 §3.1.2).';
  if (!SCHEME.test(uri) || !URL.canParse(uri)) return 'must be an absolute URI (scheme:…).';
  return null;
}

function webUriProblem(uri: string, secure: boolean): string | null {
  // `new URL('https:example.com')` quietly becomes `https://example.com/`; the stored string must be what is matched.
  if (!/^https?:\/\/[^/?#]/i.test(uri) || !URL.canParse(uri)) return 'must be an absolute URL (https://host/path).';
  const url = new URL(uri);
  if (url.username || url.password || /^https?:\/\/[^/?#]*@/i.test(uri)) return 'must not contain user credentials.';
  if (!secure && !LOOPBACK_HOSTS.has(url.hostname)) {
    return 'http is only allowed on loopback (127.0.0.1, [::1], localhost); use https.';
  }
  return null;
}
