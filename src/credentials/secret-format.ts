import crypto from 'node:crypto';
import zlib from 'node:zlib';

/**
 * The shape of every Legible secret, GitHub style
 * (https://github.blog/2021-04-05-behind-githubs-new-authentication-token-formats/):
 *
 *   lgb_key_ 3Xq…(43 base62 chars = 256 CSPRNG bits)… 0aZ9bC
 *   └prefix┘ └──────────────── body ────────────────┘ └crc32┘
 *
 * - a fixed prefix per kind, with underscores so a double-click selects the whole secret and
 *   secret scanners can match it;
 * - a body of 32 random bytes in base62, left-padded to 43 characters;
 * - a 6-character base62 CRC32 of `prefix + body`, so typos are refused before any store read.
 *
 * Only `hashSecret(secret)` is stored; the display `hint` is the prefix and the body's first 4 chars.
 *
 * @example
 *   const { secret, hint } = generateSecret('api_key'); // secret shown once, hint stored
 *   parseSecret(secret);                                // → { kind: 'api_key' }
 *   parseSecret(secret.slice(0, -1) + 'x');             // → null (checksum)
 */
export type SecretKind = 'account_token' | 'api_key' | 'client_secret';

export const SECRET_PREFIXES: Readonly<Record<SecretKind, string>> = Object.freeze({
  account_token: 'lgb_at_',
  api_key: 'lgb_key_',
  client_secret: 'lgb_cs_',
});

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const BODY_BYTES = 32;
/** 62^43 > 2^256, so every 32-byte body fits in 43 base62 digits. */
const BODY_LENGTH = 43;
const CHECKSUM_LENGTH = 6;
const HINT_BODY_CHARS = 4;
const BASE62_RUN = new RegExp(`^[0-9A-Za-z]{${BODY_LENGTH + CHECKSUM_LENGTH}}$`);

/** `parseSecret`'s answers, one frozen object per kind (it runs on every request). */
const PARSED = (Object.entries(SECRET_PREFIXES) as Array<[SecretKind, string]>).map(([kind, prefix]) => ({
  prefix,
  parsed: Object.freeze({ kind }),
}));

/** The longest secret of any kind; longer inputs are refused without further work. */
export const MAX_SECRET_LENGTH = Math.max(...Object.values(SECRET_PREFIXES).map((p) => p.length)) + BODY_LENGTH + CHECKSUM_LENGTH;

function toBase62(value: bigint, width: number): string {
  let out = '';
  let v = value;
  while (v > 0n) {
    out = ALPHABET[Number(v % 62n)] + out;
    v /= 62n;
  }
  return out.padStart(width, '0');
}

/** Base62 of the CRC32, in plain number arithmetic (62^6 > 2^32): it runs on every API request, BigInt would cost more than the CRC. */
function checksum(prefixAndBody: string): string {
  let v = zlib.crc32(prefixAndBody);
  let out = '';
  for (let i = 0; i < CHECKSUM_LENGTH; i += 1) {
    out = ALPHABET[v % 62] + out;
    v = Math.floor(v / 62);
  }
  return out;
}

/** A new secret of `kind` (show it once) and its non-secret display hint (store it). */
export function generateSecret(kind: SecretKind): { secret: string; hint: string } {
  const prefix = SECRET_PREFIXES[kind];
  const body = toBase62(BigInt(`0x${crypto.randomBytes(BODY_BYTES).toString('hex')}`), BODY_LENGTH);
  const secret = `${prefix}${body}${checksum(prefix + body)}`;
  return { secret, hint: `${prefix}${body.slice(0, HINT_BODY_CHARS)}` };
}

/**
 * The kind of a well-formed secret, or `null` for anything else (wrong prefix, charset, length or
 * checksum). Pure and cheap: call it before any cache or store lookup.
 */
export function parseSecret(value: string): { readonly kind: SecretKind } | null {
  if (typeof value !== 'string' || value.length > MAX_SECRET_LENGTH) return null;
  for (const { prefix, parsed } of PARSED) {
    if (!value.startsWith(prefix)) continue;
    const rest = value.slice(prefix.length);
    if (!BASE62_RUN.test(rest)) return null;
    const bodyEnd = prefix.length + BODY_LENGTH;
    return value.slice(bodyEnd) === checksum(value.slice(0, bodyEnd)) ? parsed : null;
  }
  return null;
}

/**
 * The stored form of a secret: hex HMAC-SHA-256 keyed by the server pepper when one is configured
 * (a leaked database alone then reveals nothing usable), plain SHA-256 otherwise. A fast hash is
 * enough for 256-bit random secrets; slow KDFs are for low-entropy passwords.
 */
export function hashSecret(secret: string, pepper?: string): string {
  return pepper
    ? crypto.createHmac('sha256', pepper).update(secret).digest('hex')
    : crypto.createHash('sha256').update(secret).digest('hex');
}

/** Constant-time comparison of two hex digests (false when lengths differ). */
export function digestsEqual(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && x.length > 0 && crypto.timingSafeEqual(x, y);
}
