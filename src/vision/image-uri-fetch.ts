import http from 'node:http';
import https from 'node:https';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';
import { GRPC_CODES } from '../errors.ts';

/**
 * Fetches `image.source.imageUri` without opening a server-side request forgery hole:
 * - http and https only (no `file:`, `gs:`, `data:` …);
 * - the address is checked *inside the connection's DNS lookup* by request-filtering-agent, so a
 *   name that resolves to a private, loopback, link-local or reserved address is refused, and DNS
 *   rebinding between check and connect is impossible (https://github.com/azu/request-filtering-agent);
 * - redirects are followed by hand (at most `maxRedirects`), each hop re-checked the same way;
 * - one deadline for the whole fetch, and the body is streamed with a byte cap per image and one for
 *   all downloads of the server together (`IMAGE_URI_FETCH_MAX_BYTES_IN_FLIGHT`).
 */
export interface UriFetchPolicy {
  /** Addresses or CIDRs let through although private (tests, intranet image stores). */
  allowedAddresses: readonly string[];
  timeoutMs: number;
  maxBytes: number;
  maxRedirects: number;
  /** Bytes being downloaded by every fetch of this server together (shared, mutable); beyond `max` an image is refused. */
  bytesInFlight?: { readonly max: number; used: number };
}

export type UriFetchOutcome = { ok: true; bytes: Uint8Array } | { ok: false; code: number; message: string };

/** Google's answer for an unreachable URL (googleapis/nodejs-vision#236). */
const UNREACHABLE = 'We can not access the URL currently. Please download the content and pass it in.';

class FetchRefusal extends Error {
  readonly code: number;

  constructor(code: number, message: string) {
    super(message);
    this.code = code;
  }
}

function parseHttpUrl(raw: string, base?: URL): URL {
  let url: URL;
  try {
    url = new URL(raw, base);
  } catch {
    throw new FetchRefusal(GRPC_CODES.INVALID_ARGUMENT, 'image.source.imageUri is not a valid URL.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new FetchRefusal(GRPC_CODES.INVALID_ARGUMENT, `image.source.imageUri must be an http or https URL (got "${url.protocol}").`);
  }
  return url;
}

interface Hop {
  redirect?: string;
  bytes?: Uint8Array;
}

function getOnce(url: URL, policy: UriFetchPolicy, signal: AbortSignal): Promise<Hop> {
  const filter = { allowIPAddressList: [...policy.allowedAddresses], keepAlive: false };
  const agent = url.protocol === 'https:' ? new RequestFilteringHttpsAgent(filter) : new RequestFilteringHttpAgent(filter);
  const get = url.protocol === 'https:' ? https.get : http.get;
  // Bytes this fetch holds in the shared budget, given back when the download is over.
  let taken = 0;
  return new Promise<Hop>((resolve, reject) => {
    const request = get(url, { agent, signal, headers: { accept: 'image/*', 'user-agent': 'Legible-ImageFetch/1' } }, (response) => {
      const status = response.statusCode ?? 0;
      if (status >= 300 && status < 400 && response.headers.location) {
        response.resume();
        resolve({ redirect: response.headers.location });
        return;
      }
      if (status < 200 || status >= 300) {
        response.resume();
        reject(new FetchRefusal(GRPC_CODES.UNAVAILABLE, UNREACHABLE));
        return;
      }
      const tooLarge = new FetchRefusal(
        GRPC_CODES.INVALID_ARGUMENT,
        `Image file at image.source.imageUri exceeds the ${policy.maxBytes / 1024 / 1024} MB limit.`,
      );
      if (Number(response.headers['content-length'] ?? 0) > policy.maxBytes) {
        response.destroy();
        reject(tooLarge);
        return;
      }
      const budget = policy.bytesInFlight;
      const busy = new FetchRefusal(
        GRPC_CODES.RESOURCE_EXHAUSTED,
        'Too many image bytes are being fetched from image.source.imageUri at once; retry later.',
      );
      if (budget && budget.used + Number(response.headers['content-length'] ?? 0) > budget.max) {
        response.destroy();
        reject(busy);
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > policy.maxBytes) {
          response.destroy();
          reject(tooLarge);
          return;
        }
        if (budget && budget.used + chunk.length > budget.max) {
          response.destroy();
          reject(busy);
          return;
        }
        if (budget) {
          budget.used += chunk.length;
          taken += chunk.length;
        }
        chunks.push(chunk);
      });
      response.on('end', () => resolve({ bytes: new Uint8Array(Buffer.concat(chunks)) }));
      response.on('error', reject);
    });
    request.on('error', reject);
  }).finally(() => {
    agent.destroy();
    if (policy.bytesInFlight) policy.bytesInFlight.used -= taken;
  });
}

function toOutcome(err: unknown, signal: AbortSignal): UriFetchOutcome {
  if (err instanceof FetchRefusal) return { ok: false, code: err.code, message: err.message };
  const message = err instanceof Error ? err.message : String(err);
  if (/is not allowed/.test(message)) {
    return {
      ok: false,
      code: GRPC_CODES.PERMISSION_DENIED,
      message: 'image.source.imageUri resolves to a private, loopback or reserved address; only public addresses are fetched.',
    };
  }
  if (signal.aborted) return { ok: false, code: GRPC_CODES.DEADLINE_EXCEEDED, message: 'Fetching image.source.imageUri timed out.' };
  return { ok: false, code: GRPC_CODES.UNAVAILABLE, message: UNREACHABLE };
}

export async function fetchImageUri(uri: string, policy: UriFetchPolicy): Promise<UriFetchOutcome> {
  const signal = AbortSignal.timeout(policy.timeoutMs);
  try {
    let url = parseHttpUrl(uri);
    for (let hop = 0; hop <= policy.maxRedirects; hop += 1) {
      const result = await getOnce(url, policy, signal);
      if (result.bytes) return { ok: true, bytes: result.bytes };
      url = parseHttpUrl(result.redirect!, url);
    }
    return { ok: false, code: GRPC_CODES.UNAVAILABLE, message: `${UNREACHABLE} (more than ${policy.maxRedirects} redirects)` };
  } catch (err) {
    return toOutcome(err, signal);
  }
}
