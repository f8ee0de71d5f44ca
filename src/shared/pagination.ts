import { Type, type Static } from '@sinclair/typebox';
import { AppError } from '../errors.ts';

/**
 * Google-style list pagination (https://google.aip.dev/158): `pageSize` + opaque `pageToken` in,
 * `nextPageToken` out (absent on the last page). Lists are ordered by a unique, time-sortable id;
 * the token carries the last id of the page, base64url-encoded so clients treat it as opaque.
 */
export const PageQuery = Type.Object(
  {
    pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 50, description: 'At most 1000; default 50.' })),
    pageToken: Type.Optional(Type.String({ maxLength: 512, description: 'The `nextPageToken` of the previous page.' })),
  },
  { additionalProperties: false },
);
export type PageQuery = Static<typeof PageQuery>;

export const DEFAULT_PAGE_SIZE = 50;

export function encodePageToken(lastId: string): string {
  return Buffer.from(JSON.stringify({ after: lastId })).toString('base64url');
}

/** The id to continue after, or undefined for the first page; a token we did not issue → 400. */
export function decodePageToken(token: string | undefined): string | undefined {
  if (token === undefined || token === '') return undefined;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
    const after = (parsed as { after?: unknown })?.after;
    // Ids are visible ASCII: anything else (a NUL, which PostgreSQL refuses) is not one of ours.
    if (typeof after === 'string' && after.length <= 200 && /^[\x21-\x7e]+$/.test(after)) return after;
  } catch {
    // fall through: not one of ours
  }
  throw new AppError('INVALID_ARGUMENT', "Invalid value at 'pageToken': not a token returned by this list.", {
    fieldViolations: [{ field: 'pageToken', description: 'Not a token returned by this list; start again without it.' }],
  });
}

/**
 * Given up to `pageSize + 1` rows fetched after the cursor, the page and its `nextPageToken`.
 * @example const { items, nextPageToken } = toPage(rows, 50, (r) => r.key_id);
 */
export function toPage<T>(rows: T[], pageSize: number, idOf: (row: T) => string): { items: T[]; nextPageToken?: string } {
  if (rows.length <= pageSize) return { items: rows };
  const items = rows.slice(0, pageSize);
  return { items, nextPageToken: encodePageToken(idOf(items[items.length - 1])) };
}
